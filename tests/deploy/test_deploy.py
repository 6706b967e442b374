"""deploy/: HAProxy's configuration is valid and holds the lecture balancer's rules, the Kubernetes manifests are valid
against Kubernetes' own schemas and pass Pod Security "restricted", and the image makes everything it serves at
build time. (tests/deploy/test_deploy_image.py runs the image's files read-only; tests/lecture/test_lecture.py the
balancer.)"""

import json
import os
import re
import shutil
import string
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
K8S_VERSION = "1.34.0"  # a Kubernetes release with the autoscaling/v2 and seccompProfile fields used
SUBSTITUTED = {"KERNEL_LAB_IMAGE": "registry.example.edu/kernel-lab:2026.11", "KERNEL_LAB_HOST": "lab.example.edu",
               "GATEWAY_CLASS": "eg"}


def require_haproxy():
    if not os.access(HAPROXY, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{HAPROXY} is missing: scripts/test.sh installs Debian's haproxy")
        pytest.skip(f"{HAPROXY} is not installed (apt-get install haproxy)")


def assert_lecture_balancer_rules(config):
    """The rules every lecture balancer keeps (deploy/haproxy.cfg, scripts/lecture.sh's generated configuration)."""
    lines = [line.split("#", 1)[0].strip() for line in config.splitlines()]
    retry_on = [line for line in lines if line.startswith("retry-on ")]
    assert retry_on == ["retry-on conn-failure empty-response"], retry_on  # never response-timeout: no replays
    assert "http-request disable-l7-retry unless METH_GET" in lines
    assert "option abortonclose" in lines
    assert "option redispatch 1" in lines
    # health: the app's page answers 200, not only /_stcore/health
    assert {"option httpchk", "http-check send meth GET uri /", "http-check expect status 200"} <= set(lines)
    assert not any("/_stcore/health" in line for line in lines)
    # affinity by cookie; limits per browser (KLAB_CLIENT) and per address, each a stick table
    assert any(re.fullmatch(r"cookie KLAB_WORKER insert indirect nocache httponly( dynamic)?", line) for line in lines)
    assert "http-request track-sc0 var(txn.client) table per_client if { var(txn.client) -m found }" in lines
    assert "http-request track-sc1 src table per_address" in lines
    limits = [re.fullmatch(r"http-request deny deny_status 429 if \{ sc_http_req_rate\((\d)\) gt (\d+) \} "
                           r"\|\| \{ sc_conn_cur\(\1\) gt (\d+) \}", line) for line in lines]
    limits = {int(m[1]): (int(m[2]), int(m[3])) for m in limits if m}
    (client_rate, client_conns), (address_rate, address_conns) = limits[0], limits[1]
    # a classroom is one address: its ceiling holds dozens of browsers at their own limit
    assert address_rate >= 50 * client_rate and address_conns >= 100 * client_conns
    assert any(line.startswith("http-response add-header Set-Cookie \"KLAB_CLIENT=%[uuid];") for line in lines)
    for table in ("per_client", "per_address"):
        i = lines.index(f"backend {table}")
        assert lines[i + 1].startswith("stick-table ") and "http_req_rate(10s),conn_cur" in lines[i + 1]


def test_compose_balancer_config_is_valid_and_keeps_the_lecture_rules():
    require_haproxy()
    result = subprocess.run([HAPROXY, "-c", "-f", str(DEPLOY / "haproxy.cfg")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert_lecture_balancer_rules((DEPLOY / "haproxy.cfg").read_text())


def test_a_balancer_that_replays_timed_out_requests_is_caught():
    config = (DEPLOY / "haproxy.cfg").read_text().replace("retry-on conn-failure empty-response",
                                                          "retry-on conn-failure empty-response response-timeout")
    with pytest.raises(AssertionError):
        assert_lecture_balancer_rules(config)


def manifests(*names):
    """The documents of deploy/k8s/<names>, with the variables filled in as envsubst does."""
    docs = []
    for name in names:
        text = string.Template((DEPLOY / "k8s" / name).read_text()).substitute(SUBSTITUTED)
        docs += [d for d in yaml.safe_load_all(text) if d]
    return docs


def test_every_manifest_names_only_the_variables_the_readme_fills_in():
    for path in (DEPLOY / "k8s").glob("*.yaml"):
        names = set(re.findall(r"\$\{?([A-Z_]+)", path.read_text()))
        assert names <= set(SUBSTITUTED), f"{path.name}: {names - set(SUBSTITUTED)}"
        assert ":latest" not in path.read_text()


def test_kubernetes_objects_are_valid_against_the_kubernetes_schemas():
    docs = manifests("kernel-lab.yaml")
    assert [d["kind"] for d in docs] == ["Deployment", "Service", "HorizontalPodAutoscaler"]
    for doc in docs:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_an_invalid_field_fails_the_schema_check():
    deployment = manifests("kernel-lab.yaml")[0]
    deployment["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFilesytem"] = True
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, K8S_VERSION, strict=True)


def test_the_pod_passes_pod_security_restricted():
    deployment = manifests("kernel-lab.yaml")[0]
    pod = deployment["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    for container in pod["containers"]:
        sc = container["securityContext"]
        assert sc["allowPrivilegeEscalation"] is False
        assert sc["capabilities"] == {"drop": ["ALL"]}
        assert sc["readOnlyRootFilesystem"] is True
        assert "privileged" not in sc and "runAsUser" not in sc  # any non-root user the platform assigns
        assert container["image"] == SUBSTITUTED["KERNEL_LAB_IMAGE"]
    assert not pod.get("volumes") and not pod.get("hostNetwork")  # nothing written, no emptyDir needed


def cpu_cores(quantity):
    return int(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def test_two_processes_per_core_and_an_autoscaler_on_cpu():
    deployment, _, hpa = manifests("kernel-lab.yaml")
    resources = deployment["spec"]["template"]["spec"]["containers"][0]["resources"]
    assert cpu_cores(resources["requests"]["cpu"]) == 0.5
    assert cpu_cores(resources["limits"]["cpu"]) == 1  # one GIL: a second core would sit idle
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu" and metric["resource"]["target"]["type"] == "Utilization"
    assert hpa["spec"]["minReplicas"] >= deployment["spec"]["replicas"] // 2


def test_the_gateway_route_pins_every_path_by_cookie_to_the_service():
    gateway, route = manifests("gateway-api.yaml")
    service = manifests("kernel-lab.yaml")[1]
    assert gateway["apiVersion"] == route["apiVersion"] == "gateway.networking.k8s.io/v1"
    assert route["spec"]["parentRefs"] == [{"name": gateway["metadata"]["name"]}]
    (rule,) = route["spec"]["rules"]
    assert rule["matches"] == [{"path": {"type": "PathPrefix", "value": "/"}}]
    assert rule["backendRefs"] == [{"name": service["metadata"]["name"], "port": service["spec"]["ports"][0]["port"]}]
    assert rule["sessionPersistence"] == {"sessionName": "KLAB_WORKER", "type": "Cookie",
                                          "cookieConfig": {"lifetimeType": "Session"}}


def test_the_traefik_route_pins_by_cookie_and_no_manifest_relies_on_annotations():
    (route,) = manifests("traefik.yaml")
    (service,) = route["spec"]["routes"][0]["services"]
    assert service["name"] == "kernel-lab" and service["sticky"]["cookie"]["name"] == "KLAB_WORKER"
    for path in (DEPLOY / "k8s").glob("*.yaml"):
        for doc in manifests(path.name):
            assert not doc["metadata"].get("annotations"), f"{path.name}: annotations a controller may ignore"


def dockerfile():
    """The Dockerfile's instructions: (keyword, arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())
    return [tuple(line.split(None, 1)) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_image_installs_the_lock_makes_static_at_build_time_and_runs_as_a_numeric_user():
    steps = dockerfile()
    runs = [args for key, args in steps if key == "RUN"]
    assert "pip install -r requirements.txt -c requirements.lock" in runs
    copy_app = steps.index(("COPY", ". ."))
    assert any("import lab.live_chart" in args for key, args in steps[copy_app:] if key == "RUN")
    (user,) = [args for key, args in steps if key == "USER"]
    assert user.isdigit() and int(user) > 0
    assert steps.index(("USER", user)) > copy_app  # the build steps run as root, the server does not
    cmd = json.loads(dict(steps)["CMD"])
    assert cmd[:5] == ["python", "-m", "streamlit", "run", "serve.py"]
    # the server settings come from .streamlit/config.toml, as for every other entry point
    assert not any("fileWatcherType" in arg for arg in cmd)
    assert "static" in (ROOT / ".dockerignore").read_text().split()  # the host's static/ never replaces the build's


def test_config_toml_turns_the_file_watcher_off_for_every_entry_point():
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit/config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
    assert config["server"]["runOnSave"] is False
    assert config["browser"]["gatherUsageStats"] is False
    for script in ("run.sh", "lecture.sh"):
        assert "fileWatcherType" not in (ROOT / "scripts" / script).read_text()

"""Lesson 4's core calls and figure builders, memoized once per process (lab/memo.py) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect
from dataclasses import dataclass

import numpy as np

from figures import boundary, pegasos
from figures.boundary import GRID_POINTS
from kernel_core.grid import make_grid
from kernel_core.kernels import KernelSpec
from kernel_core.mercer import fails_mercer
from kernel_core.pegasos import KernelPegasos
from kernel_core.perceptron import KernelPerceptron
from kernel_core.svm import DualSVM
from lab.caught import caught_warnings
from lab.memo import memo

PEGASOS_SOURCE = inspect.getsource(KernelPegasos.fit)
# frames of a replay on a decision plot: about this many snapshots of the run
REPLAY_FRAMES = 25

# each figure is built once per distinct input (see lab/memo.py)
objective_figure, alpha_animation, mistakes_figure = map(
    memo(), (pegasos.objective_figure, pegasos.alpha_animation, pegasos.mistakes_figure))


@dataclass(frozen=True)
class Setup:
    """What the student chose: the kernel, λ, the number of steps T and the sampler's seed for Pegasos, and the
    perceptron's limit on passes over the data."""

    kernel: KernelSpec
    lam: float
    T: int
    seed: int
    max_epochs: int


@dataclass(frozen=True)
class Pegasos:
    """Algorithm 1's output and its recorded history."""

    alpha: np.ndarray                # α^T = β^T/(λT), the last iterate
    alpha_avg: np.ndarray            # α̂ = (1/T) Σ α^t, the output
    beta: np.ndarray                 # β^(T+1), after step T
    n_updates: int                   # steps whose point was inside the margin
    train_error: float               # of α̂
    t: np.ndarray                    # the steps the objective was recorded at
    objective: np.ndarray            # at α^t
    objective_avg: np.ndarray        # at α̂_t
    snapshot_t: np.ndarray           # the steps α^t and α̂_t were recorded at
    alpha_snapshots: np.ndarray      # α^t at snapshot_t
    alpha_avg_snapshots: np.ndarray  # α̂_t at snapshot_t


@dataclass(frozen=True)
class Optimum:
    """The exact minimum of Pegasos' objective, from the SVM dual without offset; objective None (and why) where
    the dual gives none: K not PSD on these points (the objective is not convex), or the dual did not converge."""

    objective: float | None
    alpha_y: np.ndarray   # α*ᵢyᵢ, signed like Pegasos' α
    warnings: tuple
    why_none: str | None = None


@dataclass(frozen=True)
class Surface:
    """f on the plot grid."""

    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray


@dataclass(frozen=True)
class Perceptron:
    """The kernel perceptron's mistake counts and f on the plot grid."""

    alpha: np.ndarray       # αᵢ: mistakes on point i
    converged: bool
    n_epochs: int
    mistakes: np.ndarray    # per epoch
    epoch_alpha: np.ndarray  # (n_epochs, n) α at the end of each epoch
    n_mistakes: int
    train_error: float
    surface: Surface
    fails_mercer: bool      # K is proved not PSD on these points: no feature space for the mistake bound


@memo(max_entries=32)
def _pegasos(X, y, kernel, lam, T, seed):
    """The fitted model itself (shared by every session, never mutated)."""
    return KernelPegasos(**kernel.params(), lam=lam, n_iter=T, random_state=seed).fit(X, y)


@memo(max_entries=32)
def fit_pegasos(X, y, kernel, lam, T, seed):
    """Algorithm 1's output and history."""
    model = _pegasos(X, y, kernel, lam, T, seed)
    h = model.history_
    return Pegasos(alpha=model.alpha_last_, alpha_avg=model.alpha_, beta=model.beta_,
                   # each update adds y_i to β_i, so |β_i| counts the updates of point i
                   n_updates=int(np.abs(model.beta_).sum()), train_error=float(np.mean(model.predict(X) != y)),
                   t=h["t"], objective=h["objective_last"], objective_avg=h["objective_avg"],
                   snapshot_t=h["snapshot_t"], alpha_snapshots=h["alpha"], alpha_avg_snapshots=h["alpha_avg"])


@memo(max_entries=32)
def exact_optimum(X, y, kernel, lam):
    """The exact optimum of Pegasos' objective from the SVM dual (it does not depend on T or the seed)."""
    n = X.shape[0]
    # λ/2‖w‖² + (1/n)Σ hinge = λ(½‖w‖² + CΣξ) with C = 1/(λn): the SVM through the origin
    with caught_warnings() as messages:
        svm = DualSVM(**kernel.params(), C=1.0 / (lam * n), fit_intercept=False).fit(X, y)
    why = ("K is not positive semi-definite on these points, so the objective is not convex and the SVM dual gives "
           "no optimum to compare with" if svm.psd_violated_ or fails_mercer(kernel, X) else
           "the SVM dual did not converge here" if not svm.converged_ else None)
    return Optimum(objective=None if why else lam * svm.dual_objective_, alpha_y=svm.alpha_ * y,
                   warnings=tuple(messages), why_none=why)


@memo(max_entries=8)
def _grid_gram(X, kernel):
    """The plot grid and K(grid, X), computed once for a kernel and data: every replay step and the
    perceptron's plot are then a matrix-vector product (read-only: shared by all sessions)."""
    grid = make_grid(X, n=GRID_POINTS)
    return grid, np.asarray(kernel.function()(grid.points, X), dtype=np.float64)


@memo(max_entries=64)
def pegasos_surface(X, y, kernel, lam, T, seed, k, iterate):
    """f on the grid for snapshot k of α̂_t (iterate "avg") or α^t ("last"), through the core's decision_function."""
    model = _pegasos(X, y, kernel, lam, T, seed)
    alpha = model.history_["alpha_avg" if iterate == "avg" else "alpha"][k]
    grid, gram = _grid_gram(X, kernel)
    Z = model.decision_function(grid.points, alpha=alpha, gram=gram).reshape(grid.y.size, grid.x.size)
    return Surface(grid.x, grid.y, Z)


@memo(max_entries=32)
def fit_perceptron(X, y, kernel, max_epochs):
    """Mistake counts, convergence and mistakes per epoch, with f on the grid."""
    # non-convergence is reported on the page from converged_, so its warning is caught and dropped
    with caught_warnings():
        model = KernelPerceptron(**kernel.params(), max_epochs=max_epochs).fit(X, y)
    grid, gram = _grid_gram(X, kernel)
    Z = model.decision_function(grid.points, gram=gram).reshape(grid.y.size, grid.x.size)
    return Perceptron(alpha=model.alpha_, converged=bool(model.converged_), n_epochs=int(model.n_epochs_),
                      mistakes=model.history_["mistakes"], epoch_alpha=model.history_["alpha"],
                      n_mistakes=int(model.history_["n_mistakes"]),
                      train_error=float(np.mean(model.predict(X) != y)), surface=Surface(grid.x, grid.y, Z),
                      fails_mercer=fails_mercer(kernel, X))


def _replay_at(n):
    """Up to REPLAY_FRAMES indices evenly spaced in 0..n-1, the last included."""
    return np.unique(np.rint(np.linspace(0, n - 1, min(n, REPLAY_FRAMES))).astype(int))


@memo(max_entries=64)
def pegasos_replay_figure(X, y, kernel, lam, T, seed, k, iterate, own):
    """The decision plot at snapshot k, with frames replaying the run up to it: f = K(grid, X) α at about
    REPLAY_FRAMES snapshots of α̂_t (iterate "avg") or α^t ("last"), one matrix-vector product each, made when a
    student asks for them (figures.figure); own: the student's points."""
    surface = pegasos_surface(X, y, kernel, lam, T, seed, k, iterate)

    def frames():
        model = _pegasos(X, y, kernel, lam, T, seed)
        snapshots = model.history_["alpha_avg" if iterate == "avg" else "alpha"]
        _, gram = _grid_gram(X, kernel)
        at = _replay_at(k + 1)
        Z = (snapshots[at] @ gram.T).reshape(-1, surface.ys.size, surface.xs.size)
        return boundary.boundary_frames(surface.xs, surface.ys, list(Z),
                                        [f"t = {model.history_['snapshot_t'][i]}" for i in at])

    return boundary.decision_figure(surface.xs, surface.ys, surface.Z, X, y, frames=frames, own=own)


@memo(max_entries=32)
def perceptron_replay_figure(X, y, kernel, max_epochs, own):
    """The perceptron's decision plot with frames of its f and mistake counts at the end of about
    REPLAY_FRAMES epochs (the last one's is the plot's own), made when a student asks for them; own: the
    student's points."""
    p = fit_perceptron(X, y, kernel, max_epochs)

    def replay():
        _, gram = _grid_gram(X, kernel)
        at = _replay_at(p.n_epochs)
        alphas = p.epoch_alpha[at]
        Z = ((alphas * y) @ gram.T).reshape(-1, p.surface.ys.size, p.surface.xs.size)
        return Z, [f"epoch {e + 1}" for e in at], alphas

    return pegasos.perceptron_figure(p.surface.xs, p.surface.ys, p.surface.Z, X, y, p.alpha, replay=replay, own=own)


def replay_step(run, progress):
    """The snapshot k and the step t that the replay slider's `progress` (1–100 % of T) shows."""
    k = round((progress - 1) / 99 * (run.snapshot_t.size - 1))
    return k, int(run.snapshot_t[k])


FIGURE_KEYS = ("pg_boundary", "pg_objective", "pg_alpha", "pg_perceptron", "pg_mistakes")


def figures(X, y, s, progress, iterate, own, keys=FIGURE_KEYS):
    """The lesson's charts by key (those in `keys`): the replayed decision plot and the objective at the replay
    slider's step, the coefficients over time, the perceptron's decision plot and its mistakes. What the page draws
    and what its live route answers (lab/live.py), which asks only for the charts on the student's screen.
    s: a Setup; progress and iterate (the replay controls) are read only for the first two charts; ValueError where
    the core refuses the data."""
    charts = {}
    if {"pg_boundary", "pg_objective", "pg_alpha"} & set(keys):
        run = fit_pegasos(X, y, s.kernel, s.lam, s.T, s.seed)
        if {"pg_boundary", "pg_objective"} & set(keys):
            k, t = replay_step(run, progress)
        if "pg_boundary" in keys:
            charts["pg_boundary"] = pegasos_replay_figure(X, y, s.kernel, s.lam, s.T, s.seed, k, iterate, own)
        if {"pg_objective", "pg_alpha"} & set(keys):
            optimum = exact_optimum(X, y, s.kernel, s.lam)
            if "pg_objective" in keys:
                charts["pg_objective"] = objective_figure(run.t, run.objective, run.objective_avg, optimum.objective,
                                                          t_mark=t)
            if "pg_alpha" in keys:
                charts["pg_alpha"] = alpha_animation(run.snapshot_t, run.alpha_snapshots, run.alpha_avg_snapshots, y,
                                                     optimum.alpha_y)
    if "pg_perceptron" in keys:
        charts["pg_perceptron"] = perceptron_replay_figure(X, y, s.kernel, s.max_epochs, own)
    if "pg_mistakes" in keys:
        charts["pg_mistakes"] = mistakes_figure(fit_perceptron(X, y, s.kernel, s.max_epochs).mistakes)
    return charts

"""How a PSD verdict is shown: check_psd's sentence and numbers, then the spectrum beside the certificate c
(cᵀKc < 0) or why there is none. Lesson 5 shows every Gram matrix it checks this way."""

import streamlit as st

from lab import page
from lessons.mercer.compute import NO_CERTIFICATE_TEXT, certificate_figure, spectrum_figure


def verdict(report, what="K"):
    """The PSD verdict with check_psd's reason and its numbers."""
    if report.is_psd:
        st.success(f"**{what} passes on these points.** {report.reason}", icon=":material/check_circle:")
    else:
        st.warning(f"**{what} is not a kernel.** {report.reason}", icon=":material/cancel:")
    page.metrics({"λ_min": f"{report.min_eigenvalue:.6g}", "λ_max": f"{report.max_eigenvalue:.6g}",
                  "negative eigenvalues": report.n_negative,
                  "cᵀKc": "—" if report.quadratic_form is None else f"{report.quadratic_form:.6g}"},
                 help={"cᵀKc": "c is the unit eigenvector of λ_min; shown only when it proves K is not PSD."})


def check(report, Xs, ys, key, what, note=None):
    """The verdict (and a note under it), then the spectrum beside the certificate, or why there is none."""
    verdict(report, what)
    if note:
        st.info(note, icon=":material/info:")
    left, right = st.columns(2, gap="medium")
    with left:
        page.chart(spectrum_figure(report.eigenvalues, report.threshold), key=f"{key}_spectrum")
    with right:
        if report.certificate is None:
            st.info(NO_CERTIFICATE_TEXT, icon=":material/info:")
        else:
            page.chart(certificate_figure(Xs, ys, report.certificate, report.quadratic_form), key=f"{key}_certificate")

"""Lesson 4's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import LECTURE_8, JAAKKOLA, CIRCLE_DATA, Preset

PRESETS = (
    Preset("pegasos", "Algorithm 1 (kernelized SGD)", f"{LECTURE_8}, §1.4", "pegasos",
           CIRCLE_DATA + (("pg_kernel", "rbf"), ("pg_gamma", 1.0), ("pg_lam", 0.1), ("pg_T", 2000),
                          ("pg_seed", 0), ("pg_iterate", "avg"), ("pg_replay", 100)),
           "Lecture 8's Gaussian kernel with σ = 1 (γ = 1) and λ = 0.1 on its circle data: αᵗ = βᵗ/(λt), "
           "α̂ = (1/T) Σₜ αᵗ.", section="replay"),
    Preset("perceptron", "kernel perceptron: mistake counts", f"{JAAKKOLA}, Kernel perceptron", "pegasos",
           CIRCLE_DATA + (("pg_kernel", "rbf"), ("pg_gamma", 1.0), ("pg_epochs", 50)),
           "K(x, x′) = exp(−‖x − x′‖²) as on the slide: αᵢ counts the mistakes on point i until convergence.",
           section="perceptron"),
)

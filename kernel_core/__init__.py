"""kernel_core: the pure-numpy engine of Kernel Lab.

One algorithm per module; every public entry point validates its input and raises ValueError
with the fix. Imports numpy and the standard library only.

    kernels       linear, polynomial, RBF, Laplacian, exponential, sigmoid; KERNELS registry
    feature_maps  explicit maps φ paired with their kernels, Taylor features of the Gaussian
    svm           DualSVM (SMO on the dual) and PrimalSVM (interior point on the primal)
    smo           the one step rule of the dual: SMO (WSS 2) and coordinate descent, on a batch of problems
    dual          what runs it to tol: kernel rows, warm starts, the active-set polish of the face
    face          the polish's face system for one problem, its inverse updated as the free set changes
    batch         the dual of many problems at once (the validation grid), with the same step rule and polish
    primal        the primal interior-point method, its polish, the Farkas proof of non-separability
    crossval      k-fold cross-validation over a C × γ grid (warm-started)
    multiclass    OneVsRest: one binary DualSVM per class
    history       which steps of an iterative solver its history_ records (shared by all)
    pegasos       KernelPegasos, Algorithm 1 of the Lecture 8 notes
    perceptron    KernelPerceptron with mistake counts
    representer   the models f(x) = Σ β_j K(x_j, x): their shared parts
    descent       LMS, kernel LMS, max_stable_eta and the gradient-descent engine they share
    ridge         KernelRidge: (K + λI)β = y by Cholesky
    logistic      KernelLogisticRegression by gradient descent
    mercer        check_psd with a certificate, closure rules, invalid kernels
    formula       parse_kernel: a safe formula language for kernels
    grid          decision-boundary grids
    validation    the shared input checks
"""

from . import (
               batch,
               crossval,
               descent,
               dual,
               face,
               feature_maps,
               formula,
               grid,
               history,
               kernels,
               logistic,
               mercer,
               multiclass,
               pegasos,
               perceptron,
               primal,
               representer,
               ridge,
               smo,
               svm,
               validation,
)

__all__ = ["batch", "crossval", "descent", "dual", "face", "feature_maps", "formula", "grid", "history", "kernels",
           "logistic", "mercer", "multiclass", "pegasos", "perceptron", "primal", "representer", "ridge", "smo", "svm",
           "validation"]

"""Lesson 6's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import PARK, CS229, Preset

PRESETS = (
    Preset("cubic", "cubic house prices, LMS and kernel LMS", f"{CS229}; {PARK}, Kernel Linear Regression",
           "regression",
           (("rg_kernel", "poly"), ("rg_degree", 3), ("rg_gamma", 1.0), ("rg_coef0", 1.0), ("rg_eta", 0.5),
            ("rg_T", 200), ("rg_mode", "batch")),
           "A cubic kernel (1 + xx′)³, whose φ is (1, √3x, √3x², x³): LMS on θ and kernel LMS on β "
           "draw the same curve.", section="descent"),
)

"""Lesson 1's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import LFD, PARK, CS229, Preset

PRESETS = (
    Preset("taylor", "Gaussian's Taylor map", f"{LFD}, slide 16; {PARK}, Kernel Example (3)", "feature-maps",
           (("fm_gamma", 1.0), ("fm_z", 1.0), ("fm_m", 4)),
           "e^{−(x−x′)²} = e^{−x²}e^{−x′²} Σᵢ (2xx′)ⁱ/i!: γ = 1, the exact kernel beside the sum of its "
           "first m terms.", section="taylor"),
    Preset("cubic_notes", "cubic house prices, θ and β", CS229, "feature-maps",
           (("fm_eta", 0.5), ("fm_T", 100), ("fm_mode", "batch")),
           "φ(x) = (1, x, x², x³) and its kernel 1 + xx′ + (xx′)² + (xx′)³: gradient descent on θ and the same "
           "steps on β give one curve.", section="cubic"),
)

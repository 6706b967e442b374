"""Every colour and class marker of the lab's figures, in one place.

Colours come from the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008), whose eight colours stay
apart for the common colour-vision deficiencies, plus greys; colour fields are tints of them. A class is never told
by colour alone: each has its own marker shape, and the student's own points have shapes of their own (diamonds), so
they stay apart from the generated points of either class. Class −1 is blue and a circle, class +1 vermillion and a
cross, on every page.
"""

OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7",
}
GREYS = {"ink": "#31333f", "dark": "#444444", "mid": "#777777", "light": "#999999", "grid": "#e8e8ec",
         "zero": "#c4c4cc", "axis": "#9a9aa6", "white": "#ffffff"}


def tint(color, amount):
    """`color` mixed with white: amount 1 is the colour itself, 0 is white."""
    rgb = [int(color[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - amount * (255 - c)):02x}" for c in rgb)


BLUE, VERMILLION = OKABE_ITO["blue"], OKABE_ITO["vermillion"]
# class 2: the third class of lesson 3's one-vs-rest
CLASS_COLORS = {-1: BLUE, 1: VERMILLION, 2: OKABE_ITO["bluish green"]}
CLASS_SYMBOLS = {-1: "circle", 1: "cross", 2: "triangle-up"}
# the student's own points: diamonds, plain for class −1, with a cross inside for +1 and an x for class 2 (drawn in
# the outline's black)
OWN_SYMBOLS = {-1: "diamond", 1: "diamond-cross", 2: "diamond-x"}
# bars have no marker shape: class +1's bars are hatched
CLASS_PATTERNS = {-1: "", 1: "/"}

# a field of f: light blue where f < 0 (class −1), white at f = 0, light vermillion where f > 0 (class +1)
DIVERGING = [[0.0, tint(BLUE, 0.45)], [0.25, tint(BLUE, 0.2)], [0.5, GREYS["white"]], [0.75, tint(VERMILLION, 0.2)],
             [1.0, tint(VERMILLION, 0.45)]]
# a Gram matrix: negative entries blue, positive vermillion
GRAM_SCALE = [[0.0, BLUE], [0.5, "#f7f7f7"], [1.0, VERMILLION]]

# what the other lines and markers mean, the same on every page
PRIMAL = OKABE_ITO["bluish green"]     # the primal's answer, the notes' own plane or circle, the averaged iterate
EMPHASIS = OKABE_ITO["orange"]         # what a step moved, an approximation, the β route
SECONDARY = OKABE_ITO["reddish purple"]  # the C line, bounded SVs, the last iterate
EXACT = OKABE_ITO["black"]
POSITIVE = OKABE_ITO["bluish green"]   # an eigenvalue > 0
NEGATIVE = OKABE_ITO["reddish purple"]  # an eigenvalue < 0
CERT_POSITIVE = OKABE_ITO["orange"]    # cᵢ > 0 in a certificate
CERT_NEGATIVE = OKABE_ITO["sky blue"]  # cᵢ < 0

# a sequential scale (lesson 3's validation accuracy): Plotly's Viridis, colour-blind safe, written out because
# Plotly's validation expands the named scale into this list (the figures send what validation would make)
VIRIDIS = [[0.0, "#440154"], [0.1111111111111111, "#482878"], [0.2222222222222222, "#3e4989"],
           [0.3333333333333333, "#31688e"], [0.4444444444444444, "#26828e"], [0.5555555555555556, "#1f9e89"],
           [0.6666666666666666, "#35b779"], [0.7777777777777778, "#6ece58"], [0.8888888888888888, "#b5de2b"],
           [1.0, "#fde725"]]

COLORWAY = [OKABE_ITO[name] for name in ("blue", "orange", "bluish green", "vermillion", "reddish purple", "sky blue",
                                         "yellow", "black")]

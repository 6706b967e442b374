"""The fixture lesson's Reproduce script."""

from lab.reproduce import num, script


def doubled(link, gamma):
    return script(7, "fixture", link, "", f"gamma = {num(gamma)}\nshow('2γ', f'{{2 * gamma:g}}')\n")

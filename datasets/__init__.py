"""Toy data generators with one signature; see datasets.generators."""

from .generators import (
    DATASET_INFO,
    DATASETS,
    MAX_NOISE,
    MAX_SAMPLES,
    MIN_SAMPLES,
    DatasetInfo,
    blobs,
    circle_rule,
    circles,
    house_prices,
    lfd_toy,
    linear,
    make_dataset,
    moons,
    spirals,
    xor,
)

__all__ = [
    "DATASET_INFO",
    "DATASETS",
    "MAX_NOISE",
    "MAX_SAMPLES",
    "MIN_SAMPLES",
    "DatasetInfo",
    "blobs",
    "circle_rule",
    "circles",
    "house_prices",
    "lfd_toy",
    "linear",
    "make_dataset",
    "moons",
    "spirals",
    "xor",
]

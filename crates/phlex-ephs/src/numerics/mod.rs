//! Numerics specific to EPHS models.

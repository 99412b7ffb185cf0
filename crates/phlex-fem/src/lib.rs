//! phlex-fem

//! phlex library

//! phlex-control: identification and control (seed 002).

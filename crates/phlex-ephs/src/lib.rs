//! phlex-ephs: exergetic port-Hamiltonian systems (seed 001).

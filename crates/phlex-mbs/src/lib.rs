//! phlex-mbs: flexible multibody systems in port-Hamiltonian form (paper 000, thesis 004 ch. 9–10).

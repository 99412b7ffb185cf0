//! Ready-made models of the papers, shared by the tests, examples and benchmarks: the
//! flexible crank–slider (paper 000 §6.3) and its independent geometrically exact
//! cross-check, the hinged spatial beam (§6.4), and the plate assemblies of thesis 004
//! §10.2.
pub mod crank_slider;
pub mod geometrically_exact;
pub mod hinged_spatial_beam;
pub mod plate_assembly;

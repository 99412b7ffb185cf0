//! Reproductions of the seed studies (convergence tables, motion planning), shared by the
//! tests (fast variants) and the examples (full tables, plots).

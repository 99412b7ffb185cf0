//! Reference elements on the triangle $\hat T$ with vertices $(0,0), (1,0), (0,1)$
//! (thesis 004 §7, summary §3.3 and §6.1 item 2).
//!
//! Currently: Lagrange $P_k$ ([`lagrange::LagrangeP`]), used for both the continuous
//! `CG_k` ($k \ge 1$) and the discontinuous `DG_k` ($k \ge 0$) spaces.
pub mod lagrange;

pub use lagrange::LagrangeP;

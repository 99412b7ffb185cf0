//! Finite elements on the reference triangle $\hat T$ with vertices $(0,0), (1,0), (0,1)$
//! (thesis 004 §7, summary §3.3 and §6.1 item 2): Lagrange $P_k$ ([`lagrange`], for both
//! $CG_k$ and $DG_k$), $H(\mathrm{div})$ ([`rt`], [`bdm`]), $H(\mathrm{div\,div})$ ([`hhj`])
//! and $H^2$-conforming ([`bell`], [`argyris`]) families.
pub mod argyris;
pub mod bdm;
pub mod bell;
pub mod hhj;
pub mod lagrange;
mod monomial;
pub mod rt;

pub use bdm::{HdivElement, HdivFamily, HdivSpace};
pub use bell::{C1Family, C1Space};
pub use hhj::HhjSpace;
pub use lagrange::LagrangeP;
pub use rt::RtSpace;

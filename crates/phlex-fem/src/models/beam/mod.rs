//! One-dimensional structural members by PFEM (thesis 004 §2.2, §6.1.4.1, §5.2.1, §6.2.2).
//!
//! * [`euler_bernoulli`]: Euler–Bernoulli beam, HerDG1, DG1Her and CGCG(k);
//! * [`timoshenko`]: Timoshenko beam, both causalities;
//! * [`bar`]: axial bar (truss member), CG × DG both causalities;
//! * [`decomposition`]: mixed boundary conditions by virtual domain decomposition and a
//!   gyrator;
//! * [`thermoelastic_beam`]: thermoelastic Euler–Bernoulli beam (bending × heat through the
//!   thickness; Lifshitz–Roukes damping).
pub mod bar;
pub mod decomposition;
pub mod euler_bernoulli;
pub mod member;
pub mod thermoelastic_beam;
pub mod timoshenko;

//! Plate models discretized by PFEM on triangle meshes (thesis 004 Ch. 4, 6, 7; summary
//! §2.5–2.6, §3.2–3.3).
//!
//! * [`mindlin`]: Mindlin–Reissner plate, CGDG dual-mixed discretization (force/torque
//!   control, thesis eq. (7.20)).
//! * [`mindlin_afw`]: Mindlin–Reissner plate, Arnold–Falk–Winther mixed discretization with
//!   weakly symmetric moments (velocity control, thesis eqs. (7.13)–(7.14)).
//! * [`kirchhoff`]: Kirchhoff–Love plate, Hellan–Herrmann–Johnson discretization (thesis
//!   eqs. (7.16)–(7.18)) with clamped / simply supported / free edges and boundary ports.
//! * [`kirchhoff_bell`]: Kirchhoff–Love plate, dual-mixed Bell/Argyris × DG3 discretization
//!   (thesis eqs. (7.23)–(7.24), "BellDG3").
//! * [`laminated`]: laminated anisotropic Kirchhoff (HHJ) and Mindlin (CGDG) plates with
//!   membrane–bending coupling (thesis §4.3, eqs. (4.47)–(4.61)).
/// The accessors shared by the assembled plate models that store their pH system in
/// `system` and their material data (of type `$params`) in `params`: `system` (documented
/// by the given doc comment), `into_system` and `params`.
macro_rules! system_and_params_accessors {
    ($(#[$doc:meta])* $params:ty) => {
        $(#[$doc])*
        pub fn system(&self) -> &LinearPhSystem {
            &self.system
        }
        /// Consumes the model, returning its system.
        pub fn into_system(self) -> LinearPhSystem {
            self.system
        }
        /// Material data.
        pub fn params(&self) -> &$params {
            &self.params
        }
    };
}

pub mod kirchhoff;
pub mod kirchhoff_bell;
pub mod laminated;
pub mod laminated_kirchhoff;
pub mod laminated_mindlin;
pub mod mindlin;
pub mod mindlin_afw;
pub mod mindlin_bjt;
pub mod thermoelastic_kirchhoff;

pub use kirchhoff::{
    BendingStiffness, EdgeCondition, Hhj, Kirchhoff, KirchhoffField, KirchhoffHhj, KirchhoffModel,
    KirchhoffParams,
};
pub use kirchhoff_bell::{Bell, BellImposition, KirchhoffBell, KirchhoffBellModel};
pub use laminated::{
    Laminate, LaminatedField, LaminatedKirchhoff, LaminatedKirchhoffModel, LaminatedMindlin,
    LaminatedMindlinModel, MembraneCondition, Ply,
};
pub use mindlin::{MindlinCgDg, MindlinModel, MindlinParams, PlateField};
pub use mindlin_afw::{
    multiplier_scale, AfwField, AfwLoadProfile, FieldSampler, MindlinAfw, MindlinAfwModel,
};

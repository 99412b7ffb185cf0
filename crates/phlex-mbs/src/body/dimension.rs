//! [`Dimension`]: what distinguishes a planar from a spatial floating body in the state
//! convention of paper 000 §4 (rapier's `dim2`/`dim3` idea, written as a trait with
//! associated constants instead of a cargo feature, so that both live in one build).
//!
//! A body's local state is $x = (q, p)$ with
//! $q = (q_{pose}, u_f)$ and $p = (v_{rigid}, v_f, \sigma)$:
//!
//! | | [`Planar`] | [`Spatial`] |
//! |---|---|---|
//! | pose coordinates $q_{pose}$ ([`Dimension::POSE_COORDS`]) | $({}^ir_P, \theta)$: 3 | $({}^ir_P, R_v)$: 3 + 9 = 12 |
//! | pose increments ([`Dimension::POSE_DOF`]) | $(\delta x, \delta y, \delta\theta)$: 3 | $(\delta r, \delta\varphi)$: 6 |
//! | rigid velocities $v_{rigid}$ ([`Dimension::RIGID_VELOCITIES`]) | $(v_P, \omega)$: 3 | $(v_P, \omega)$: 6 |
//! | port power variables ([`Dimension::PORT_DIM`]) | $(F_x, F_y, T)$: 3 | $(F, T)$: 6 |
//! | translations ([`Dimension::DIM`]) | 2 | 3 |

/// The dimension-dependent sizes of the floating-body state convention (see the
/// [module documentation](self)). An implementor gives the number of translations and how
/// many coordinates store a rotation; the rigid degrees of freedom follow.
pub trait Dimension: Copy + std::fmt::Debug + Send + Sync + 'static {
    /// Number of translational components (2 or 3).
    const DIM: usize;
    /// Coordinates storing the body rotation in a local state (planar angle $\theta$: 1;
    /// spatial $R_v = \mathrm{vec}(R^\top)$: 9).
    const ROTATION_COORDS: usize;
    /// Short name for messages (`"planar"`, `"spatial"`).
    const NAME: &'static str;

    /// Number of rotational degrees of freedom $d(d-1)/2$ (1 or 3).
    const ROTATIONS: usize = Self::DIM * (Self::DIM - 1) / 2;
    /// Pose coordinates ahead of the elastic coordinates $u_f$ in a local state (planar
    /// $x, y, \theta$: 3; spatial ${}^ir_P$ and the 9 entries of $R$: 12).
    const POSE_COORDS: usize = Self::DIM + Self::ROTATION_COORDS;
    /// Pose increments per body, the rigid degrees of freedom (planar
    /// $(\delta x, \delta y, \delta\theta)$: 3; spatial $(\delta r, \delta\varphi)$: 6).
    const POSE_DOF: usize = Self::DIM + Self::ROTATIONS;
    /// Rigid velocities ahead of the elastic velocities $v_f$ (planar $(v_P, \omega)$: 3;
    /// spatial: 6).
    const RIGID_VELOCITIES: usize = Self::POSE_DOF;
    /// Dimension of the power port of a body point (force and torque): 3 or 6.
    const PORT_DIM: usize = Self::POSE_DOF;
}

/// The plane: pose $(x, y, \theta)$, paper 000 §4.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Planar;

/// Space: pose $({}^ir_P, R)$ on SE(3), paper 000 Remark 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spatial;

impl Dimension for Planar {
    const DIM: usize = 2;
    const ROTATION_COORDS: usize = 1;
    const NAME: &'static str = "planar";
}

impl Dimension for Spatial {
    const DIM: usize = 3;
    const ROTATION_COORDS: usize = 9;
    const NAME: &'static str = "spatial";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes of the state convention of paper 000 §4.3 (plane) and Remark 4 (space).
    #[test]
    fn sizes_of_the_state_convention() {
        assert_eq!(
            (Planar::POSE_COORDS, Planar::POSE_DOF, Planar::PORT_DIM),
            (3, 3, 3)
        );
        assert_eq!(
            (Spatial::POSE_COORDS, Spatial::POSE_DOF, Spatial::PORT_DIM),
            (12, 6, 6)
        );
        assert_eq!(
            (Planar::RIGID_VELOCITIES, Spatial::RIGID_VELOCITIES),
            (3, 6)
        );
    }
}

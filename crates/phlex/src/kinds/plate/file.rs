//! The plate model file (`[plate]`; format documented in `docs/model-format-plate.md`) as
//! serde structures (`deny_unknown_fields`, spanned values so that errors name the key and
//! its line).
use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::continuum::{DampingSpec, FieldFile, MeshSpec};
use crate::keys::WithKeys;
use crate::material::ThermalKeys;

/// A plate model file: the shared continuum tables ([`FieldTables`]: `[model]`,
/// `[initial]` with the fields `e_w`, `e_theta_x`, `e_theta_y` as expressions in `x`, `y`,
/// `[simulation]`, `[output]` with vertical velocity probes, `[modes]`, `[[input]]` on the
/// traction and load ports, uniform along the edge) and [`PlateTables`].
///
/// [`FieldTables`]: crate::continuum::FieldTables
pub type PlateFile = FieldFile<PlateTables>;

/// The plate tables of the model file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateTables {
    /// Geometry, mesh, material, discretization and edge conditions.
    pub plate: PlateSpec,
    /// Boundary damping injection $u = -Ky$ on traction ports (thesis 004 §8.1.1).
    #[serde(default)]
    pub damping: Vec<DampingSpec>,
}

/// `[plate]`: the 2D mesh keys ([`MeshSpec`]) and [`PlateKeys`].
pub type PlateSpec = WithKeys<MeshSpec, PlateKeys>;

/// The keys of `[plate]` besides the mesh.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateKeys {
    /// Plate theory: `"mindlin"` (CGDG, thesis eq. (7.20)), `"kirchhoff"` (HHJ, Bell or
    /// Argyris), `"laminated_kirchhoff"`, `"laminated_mindlin"` (ply stack `[[plate.plies]]`).
    pub theory: Spanned<String>,
    /// Kirchhoff discretisation: `"hhj"` (default), `"bell"` or `"argyris"` (H²-conforming
    /// deflection rate × DG3 moments, thesis "BellDG3").
    pub element: Option<Spanned<String>>,
    /// Bell/Argyris essential conditions: `"exact"` (default, whole edge) or
    /// `"thesis_vertex"` (vertex values only, as the thesis's scripts; tables B.19, B.23).
    pub bc_imposition: Option<Spanned<String>>,
    /// Laminated Kirchhoff: include the rotary inertias I1, I2 (default false, as the thesis).
    pub rotary_inertia: Option<Spanned<bool>>,
    /// Laminated plates: membrane condition per edge overriding the default of the bending
    /// condition: `fixed`, `free`, `tangential_fixed` (SS-1), `normal_fixed` (SS-2).
    #[serde(default)]
    pub membrane: BTreeMap<String, Spanned<String>>,
    /// Laminated plates: the plies, bottom first.
    #[serde(default)]
    pub plies: Vec<PlySpec>,
    /// Polynomial degree k of the CG velocities (1..3).
    #[serde(default = "one")]
    pub degree: Spanned<usize>,
    /// Young's modulus $E$ \[Pa\] (isotropic plates).
    pub youngs_modulus: Option<Spanned<f64>>,
    /// Poisson's ratio $\nu$ (isotropic plates).
    pub poisson_ratio: Option<Spanned<f64>>,
    /// Density $\rho$ \[kg/m³\] (isotropic plates).
    pub density: Option<Spanned<f64>>,
    /// Thickness $h$ \[m\] (isotropic plates).
    pub thickness: Option<Spanned<f64>>,
    /// Shear correction factor $k$ (Mindlin, default 5/6).
    pub shear_factor: Option<Spanned<f64>>,
    /// Edge conditions by edge name (`left`, `right`, `bottom`, `top`): `clamped`,
    /// `clamped_weak`, `free` (default) or `port`.
    #[serde(default)]
    pub edges: BTreeMap<String, Spanned<String>>,
    /// Distributed loads `[[plate.load]]` (Mindlin CGDG and Kirchhoff HHJ): each is an input
    /// port driven by `[[input]] port = "<name>"`.
    #[serde(default)]
    pub load: Vec<PlateLoadSpec>,
    /// Thermoelastic coupling (Kirchhoff HHJ only): the Chadwick plate of thesis 004 §5.2.2.
    pub thermal: Option<PlateThermalSpec>,
}

/// `[plate.thermal]`: the heat conduction keys ([`ThermalKeys`]) and [`PlateThermalKeys`].
pub type PlateThermalSpec = WithKeys<ThermalKeys, PlateThermalKeys>;

/// The keys of `[plate.thermal]` besides the heat conduction data: heat conduction in the
/// plate volume coupled to the bending
/// ([`ThermoelasticKirchhoff`](phlex_fem::models::plate::thermoelastic_kirchhoff::ThermoelasticKirchhoff), thesis 004 eqs. (5.35)–(5.41)).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateThermalKeys {
    /// Temperature degree in the plane (1..=3, default 1).
    pub plane_degree: Option<usize>,
    /// Temperature elements through the thickness (default 8).
    pub thickness_elements: Option<usize>,
    /// Temperature degree through the thickness (1..=3, default 2).
    pub thickness_degree: Option<usize>,
}

/// `[[plate.load]]`: a distributed load port $\int_\Omega f\,e_w\,u(t)$ with a spatial
/// profile (force per area $f(x, y)$ \[N/m²\], Mindlin also a distributed torque
/// $(m_x, m_y)(x, y)$ \[N\]), scaled by the port's input signal.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlateLoadSpec {
    /// Port name (drive it with `[[input]] port = "<name>"`).
    pub name: Spanned<String>,
    /// Force per area as an expression in `x`, `y` (default 0).
    pub force: Option<Spanned<String>>,
    /// Distributed torque `["m_x(x, y)", "m_y(x, y)"]` (Mindlin CGDG only).
    pub torque: Option<Spanned<Vec<String>>>,
}

/// `[[plate.plies]]`: one orthotropic ply of a laminate.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlySpec {
    /// Young's modulus along the fibres $E_1$ \[Pa\].
    pub youngs_modulus_1: f64,
    /// Young's modulus across the fibres $E_2$ \[Pa\].
    pub youngs_modulus_2: f64,
    /// Major Poisson's ratio $\nu_{12}$.
    pub poisson_ratio_12: f64,
    /// In-plane shear modulus $G_{12}$ \[Pa\].
    pub shear_modulus_12: f64,
    /// Transverse shear modulus $G_{13}$ \[Pa\] (Mindlin).
    pub shear_modulus_13: f64,
    /// Transverse shear modulus $G_{23}$ \[Pa\] (Mindlin).
    pub shear_modulus_23: f64,
    /// Density $\rho$ \[kg/m³\].
    pub density: f64,
    /// Ply thickness \[m\].
    pub thickness: f64,
    /// Fibre angle from x towards y \[degrees\] (`angle_deg`, as the angles in degrees
    /// of the multibody files).
    #[serde(default)]
    pub angle_deg: f64,
}

fn one() -> Spanned<usize> {
    Spanned::new(0..0, 1)
}

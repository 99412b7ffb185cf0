//! # phlex-fem: partitioned finite elements for port-Hamiltonian structures
//!
//! Implements the Partitioned Finite Element Method (PFEM) of thesis 004 (Brugnoli 2020,
//! Ch. 6–7; summary §3.1–3.4) in 1D, 2D and 3D. The crate is layered; each folder uses only
//! the folders above it in this list:
//!
//! 1. [`mesh`]: interval, triangle (structured, disk), quadrilateral and tetrahedral meshes
//!    with boundary tags;
//! 2. [`quadrature`]: Gauss–Legendre, triangle and tetrahedron rules, and the one module of
//!    1D polynomials (Legendre, shifted Legendre, equispaced Lagrange);
//! 3. [`element`]: finite element families by reference cell (Lagrange/Hermite on lines;
//!    Lagrange, $RT$, $BDM$, HHJ, Bell, Argyris on triangles; tensor-product quads;
//!    Lagrange tetrahedra);
//! 4. [`space`]: global Lagrange spaces (DOF maps, evaluation, boundary DOFs) and sparse
//!    linear functionals;
//! 5. [`assembly`]: mass, coupling, load and point matrices;
//! 6. [`models`]: the PFEM models returning [`phlex_core::LinearPhSystem`]s with named ports
//!    and field-by-field variable blocks: [`models::beam`] (Euler–Bernoulli, Timoshenko,
//!    bar, domain decomposition, thermoelastic beam), [`models::plate`] (Mindlin CGDG, AFW,
//!    BJT; Kirchhoff HHJ and Bell/Argyris; laminated and thermoelastic plates) and
//!    [`models::continuum`] (elasticity, thermoelasticity, heat, rod thermoelasticity,
//!    acoustics, vibroacoustic duct, shallow water);
//! 7. [`io`]: Gmsh import and VTK output.
//!
//! [`error`] holds the error types of every layer. Assembly over cells runs in parallel
//! (rayon, deterministic).
//!
//! Every 1D model builds a [`PfemModel`] with the system, probes (linear functionals for
//! field values), $L^2$ projections for initial conditions and error norms.
//!
//! Port conventions (all models, see [`models::boundary`]): ports `"left"`/`"right"` pair
//! the force and moment *applied to the structure* at that end with its velocity and
//! angular velocity, in the order (translation, rotation); which of the two is the input
//! depends on the discretization (natural causality) and on multiplier-imposed conditions.
//!
//! ```
//! use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
//! use phlex_fem::{EndCondition, Field};
//! // cantilever, thesis 004 Table 7.1 parameters, tip force/moment port "right"
//! let m = EulerBernoulli::new(0.28, 0.56576, 1.0, 16)
//!     .discretization(EbDiscretization::HerDg1)
//!     .ends(EndCondition::Clamped, EndCondition::Port)
//!     .build()?;
//! assert_eq!(m.port_names(), vec!["right"]);
//! m.system().check(&Default::default())?;
//! let e0 = m.project(Field::Velocity, &|x| x * x)?; // initial velocity field
//! let tip = m.probe(Field::Velocity, 1.0)?; // tip velocity = tip.dot(&e)
//! assert!((tip.dot(&e0) - 1.0).abs() < 1e-12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod assembly;
pub mod element;
pub mod error;
pub mod io;
pub mod mesh;
pub mod models;
pub mod quadrature;
pub mod space;

pub use element::Family;
pub use error::{Fem2dError, FemError};
pub use mesh::{End, Mesh1d};
pub use models::boundary::{Component, EndCondition, Imposition, Quantity};
pub use models::model::{DistributedLoad, EndPort, ErrorNorms, Exact, Field, PfemModel, Profile};
pub use space::{Space1d, SparseVec};

//! # phlex-fem: partitioned finite elements for port-Hamiltonian structures
//!
//! Implements the Partitioned Finite Element Method (PFEM) of thesis 004 (Brugnoli 2020,
//! Ch. 6–7; summary §3.1–3.4) on interval meshes: meshes ([`mesh`]), Gauss–Legendre
//! quadrature ([`quadrature`]), Lagrange/Hermite reference elements ([`element`]), global
//! spaces ([`space`]), assembly of mass, coupling, load and point matrices ([`assembly`]),
//! and structural models returning [`phlex_core::LinearPhSystem`]s with named ports and
//! field-by-field variable blocks:
//!
//! * [`euler_bernoulli`]: HerDG1, DG1Her and CGCG(k) discretizations;
//! * [`bar`]: axial bar (truss member), CG×DG both causalities;
//! * [`timoshenko`]: Timoshenko beam, both causalities;
//! * [`heat`]: the heat equation as a pHDAE (flux or temperature ports);
//! * [`thermoelastic_1d`]: coupled linear thermoelasticity of a rod (Danilovskaya);
//! * [`thermoelastic_beam`]: thermoelastic Euler–Bernoulli beam (bending × heat through
//!   the thickness; Lifshitz–Roukes damping);
//! * [`decomposition`]: mixed boundary conditions by virtual domain decomposition and a
//!   gyrator (thesis §6.2.2).
//!
//! In 2D ([`mesh2d`], [`quadrature2d`], [`element2d`], [`space2d`], [`assembly2d`]):
//! triangle meshes with boundary tags (structured rectangles, disks [`mesh2d_disk`], or Gmsh
//! files read by [`gmsh`], which also reads tetrahedral meshes), quadrilateral meshes
//! ([`mesh2d_quad`], rectangles and disk O-grids) with $Q_k$/$DQ_k$ spaces
//! ([`element2d_quad`]), Lagrange CG/DG spaces (scalar, vector, symmetric tensor),
//! Raviart–Thomas ([`element2d_rt`]), $RT_k$/$BDM_k$ ([`element2d_bdm`]),
//! Hellan–Herrmann–Johnson ([`element2d_hhj`]) and the $C^1$ Bell/Argyris triangles
//! ([`element2d_bell`], [`element2d_argyris`]), and the models:
//!
//! * [`plate`]: Mindlin (CGDG, AFW, BJT), Kirchhoff (HHJ, Bell/Argyris × DG3), laminated
//!   and thermoelastic plates;
//! * [`thermoelasticity`]: coupled linear thermoelasticity, plane strain, plane stress and 3D, with traction and heat-flux ports;
//! * [`shallow_water`]: irrotational shallow water (nonlinear, discrete-gradient step);
//! * [`elasticity`]: 2D (plane strain/stress) and 3D linear elasticity, CG velocity × DG
//!   stress (3D on the tetrahedral meshes of [`mesh3d`] with the elements of [`element3d`]);
//! * [`wave`]: acoustics / wave equation in both causalities, planar or axisymmetric;
//! * [`wave_decomposition`]: axisymmetric duct with mixed boundary conditions, DAE
//!   (multiplier) and ODE (domain decomposition + gyrator) methods (thesis §8.2.2).
//!
//! [`vtk`] writes 2D and 3D fields for ParaView. Assembly over cells runs in parallel
//! (rayon, deterministic).
//!
//! Every 1D model builds a [`PfemModel`] with the system, probes (linear functionals for
//! field values), $L^2$ projections for initial conditions and error norms.
//!
//! Port conventions (all models, see [`boundary`]): ports `"left"`/`"right"` pair the
//! force and moment *applied to the structure* at that end with its velocity and angular
//! velocity, in the order (translation, rotation); which of the two is the input depends
//! on the discretization (natural causality) and on multiplier-imposed conditions.
//!
//! ```
//! use phlex_fem::euler_bernoulli::{EbDiscretization, EulerBernoulli};
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
pub mod assembly2d;
pub mod bar;
pub mod boundary;
pub mod decomposition;
pub mod elasticity;
pub mod element;
pub mod element2d;
pub mod element2d_argyris;
pub mod element2d_bdm;
pub mod element2d_bell;
pub mod element2d_hhj;
pub mod element2d_quad;
pub mod element2d_rt;
pub mod element3d;
pub mod error;
pub mod euler_bernoulli;
pub mod functional;
pub mod gmsh;
pub mod heat;
pub mod mesh;
pub mod mesh2d;
pub mod mesh2d_disk;
pub mod mesh2d_quad;
pub mod mesh3d;
pub mod model;
pub mod plate;
pub mod quadrature;
pub mod quadrature2d;
pub mod shallow_water;
pub mod space;
pub mod space2d;
pub mod thermoelastic_1d;
pub mod thermoelastic_beam;
pub mod thermoelasticity;
pub mod timoshenko;
pub mod vtk;
pub mod wave;
pub mod wave_decomposition;

pub use boundary::{Component, End, EndCondition, Imposition, Quantity};
pub use element::Family;
pub use error::FemError;
pub use functional::SparseVec;
pub use mesh::Mesh1d;
pub use model::{DistributedLoad, EndPort, ErrorNorms, Exact, Field, PfemModel, Profile};
pub use space::Space1d;

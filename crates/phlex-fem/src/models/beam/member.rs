//! The builder shared by the one-dimensional structural members ([`super::bar`],
//! [`super::euler_bernoulli`], [`super::timoshenko`]): cross-section data, mesh,
//! discretization, end conditions with their imposition, and distributed loads.
//!
//! A member is assembled *open* (both ends ports in the natural causality of its
//! discretization) and its ends are then closed per condition, strongly or by multipliers
//! (thesis 004 §3.4, §6.2.1; [`crate::models::model`]). What differs between members is
//! only the [`Section`]: its parameters, its discretizations and its open assembly.
use crate::error::FemError;
use crate::mesh::interval::{End, Mesh1d, MeshSpec};
use crate::models::boundary::{Component, EndCondition, Imposition, Quantity};
use crate::models::model::{BlockAssembler, DistributedLoad, OpenEndTerm, PfemModel, Profile};
use crate::space::line::Space1d;
use std::fmt;

/// The member-specific part of a [`Member`]: cross-section parameters and the open PFEM
/// assembly.
pub trait Section: Clone + fmt::Debug {
    /// The discretizations (pairs of finite element families) of the member.
    type Discretization: Copy + fmt::Debug + PartialEq;
    /// Checks the section parameters (errors name the offending one).
    fn validate(&self) -> Result<(), FemError>;
    /// Assembles `member` on `mesh` (its built mesh specification).
    fn assemble(member: &Member<Self>, mesh: &Mesh1d) -> Result<PfemModel, FemError>;
}

/// The end port at `end` of a mixed member in the natural causality `natural` of its
/// discretization, through the trace of the continuous field `block` (space `space`):
/// a force input enters through the velocity trace, column $\phi(\text{end})$ (output:
/// the end velocity); a velocity input through the outward stress trace, column
/// $-\psi(x_0)$ at the left end and $+\psi(x_n)$ at the right one (output: the end force).
pub(crate) fn end_port(
    asm: &BlockAssembler,
    end: End,
    component: Component,
    natural: Quantity,
    block: usize,
    space: &Space1d,
) -> OpenEndTerm {
    let trace = space.end_functional(end, 0);
    let column = match natural {
        Quantity::Velocity if end == End::Left => trace.scaled(-1.0),
        _ => trace,
    };
    OpenEndTerm {
        end,
        component,
        natural,
        column: asm.embed(block, &column),
    }
}

/// Name of the mixed discretization of degree `k` of the member `what`:
/// `"{what} CG{k}xDG{k-1}"` with continuous velocities, `"{what} DG{k-1}xCG{k}"` with
/// continuous stresses.
pub(crate) fn mixed_name(what: &str, k: usize, velocity_cg: bool) -> String {
    if velocity_cg {
        format!("{what} CG{k}xDG{}", k - 1)
    } else {
        format!("{what} DG{}xCG{k}", k - 1)
    }
}

/// Builder of a one-dimensional PFEM member with cross-section `S`.
///
/// Ports: `"left"`, `"right"` (see [`crate::models::boundary`]) and one per distributed
/// load.
#[derive(Debug, Clone)]
pub struct Member<S: Section> {
    /// Cross-section parameters.
    pub section: S,
    /// Mesh.
    pub mesh: MeshSpec,
    /// Discretization.
    pub discretization: S::Discretization,
    /// Condition at $x = x_0$.
    pub left: EndCondition,
    /// Condition at $x = x_n$.
    pub right: EndCondition,
    /// Imposition of essential conditions.
    pub imposition: Imposition,
    /// Distributed loads.
    pub loads: Vec<DistributedLoad>,
}

impl<S: Section> Member<S> {
    /// `section` discretized by `discretization` on a uniform mesh of `[0, length]` with
    /// `n_elements` elements; both ends open ports, strong imposition, no loads.
    pub fn with_section(
        section: S,
        discretization: S::Discretization,
        length: f64,
        n_elements: usize,
    ) -> Self {
        Self {
            section,
            mesh: MeshSpec::Uniform { length, n_elements },
            discretization,
            left: EndCondition::Port,
            right: EndCondition::Port,
            imposition: Imposition::Strong,
            loads: Vec::new(),
        }
    }

    /// Sets the discretization.
    pub fn discretization(mut self, d: S::Discretization) -> Self {
        self.discretization = d;
        self
    }

    /// Sets both end conditions.
    pub fn ends(mut self, left: EndCondition, right: EndCondition) -> Self {
        self.left = left;
        self.right = right;
        self
    }

    /// Sets the imposition of essential conditions.
    pub fn imposition(mut self, i: Imposition) -> Self {
        self.imposition = i;
        self
    }

    /// Uses a given mesh instead of the uniform one.
    pub fn mesh(mut self, mesh: Mesh1d) -> Self {
        self.mesh = MeshSpec::Custom(mesh);
        self
    }

    /// Adds a distributed force port `name` on the velocity (axial for a bar, transverse
    /// for a beam) with profile $f(x)$ \[N/m per unit amplitude\].
    pub fn load(mut self, name: impl Into<String>, profile: Profile) -> Self {
        self.loads.push(DistributedLoad::force(name, profile));
        self
    }

    /// Assembles the model (errors name the offending parameter).
    pub fn build(&self) -> Result<PfemModel, FemError> {
        self.section.validate()?;
        let mesh = self.mesh.build()?;
        S::assemble(self, &mesh)
    }
}

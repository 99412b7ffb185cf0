//! The common result of every PFEM model: a [`LinearPhSystem`] plus the finite element
//! spaces of its fields, with probes, projections and error norms.
//!
//! A model is first assembled *open* (both ends carry ports in the natural causality of
//! the discretization, thesis 004 §3.1 choices A/B), then boundary conditions are applied
//! per end ([`crate::models::boundary`]): natural conditions drop inputs, essential ones remove the
//! trace DOF (strong) or border $J$ with the trace $G$ (the natural input column) and add
//! an index-2 multiplier block, exactly the form of paper 000 eq. (47) (thesis §6.2.1,
//! summary §3.4):
//! $\operatorname{diag}(E, 0)\,\tfrac{d}{dt}(e, \lambda) = \begin{bmatrix}J & G\\ -G^\top & 0
//! \end{bmatrix}(e, \lambda) + \begin{bmatrix}B & 0\\ 0 & I\end{bmatrix}(u, u_c)$,
//! $y_c = \lambda$: the prescribed trace $G^\top e = u_c$ is the input and the multiplier
//! (the reaction) is its conjugate output.
use crate::assembly::line::{self, Coefficient};
use crate::error::{join_names, FemError};
use crate::mesh::interval::End;
use crate::models::boundary::{
    describe, Component, EndCondition, Imposition, Kinematics, Quantity,
};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::space::functional::SparseVec;
use crate::space::line::Space1d;
use faer::linalg::solvers::Solve;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{CoreError, LinearPhSystem, Port, PortSet, VarBlock};
use std::fmt;
use std::ops::Range;

/// A physical field of a 1D structural model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// Transverse velocity $\dot w$ \[m/s\] (axial velocity $v$ for a bar).
    Velocity,
    /// Angular velocity \[rad/s\]: $\partial_x \dot w$ (Euler–Bernoulli, derived) or the
    /// independent rotation rate $\dot\varphi$ (Timoshenko).
    AngularVelocity,
    /// Bending moment $M$ \[N m\] ($e_\kappa = EI\,\partial_{xx} w$ for Euler–Bernoulli).
    Moment,
    /// Shear force $Q$ \[N\]: $-\partial_x M$ (Euler–Bernoulli, derived) or
    /// $kGA(\partial_x w - \varphi)$ (Timoshenko).
    ShearForce,
    /// Axial normal force $N = EA\,\partial_x u$ \[N\] (bar).
    NormalForce,
}

impl Field {
    /// Name with unit, e.g. `"velocity [m/s]"`.
    pub fn describe(&self) -> &'static str {
        match self {
            Field::Velocity => "velocity [m/s]",
            Field::AngularVelocity => "angular velocity [rad/s]",
            Field::Moment => "bending moment [N m]",
            Field::ShearForce => "shear force [N]",
            Field::NormalForce => "normal force [N]",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A closed-form field for error norms: value and, optionally, first and second
/// derivatives (needed for the $H^1$ and $H^2$ seminorms).
#[derive(Clone, Copy)]
pub struct Exact<'a> {
    /// $u(x)$.
    pub value: &'a dyn Fn(f64) -> f64,
    /// $u'(x)$.
    pub d1: Option<&'a dyn Fn(f64) -> f64>,
    /// $u''(x)$.
    pub d2: Option<&'a dyn Fn(f64) -> f64>,
}

impl<'a> Exact<'a> {
    /// Value only (only the $L^2$ error is computed).
    pub fn new(value: &'a dyn Fn(f64) -> f64) -> Self {
        Self {
            value,
            d1: None,
            d2: None,
        }
    }
    /// Adds the first derivative.
    pub fn with_d1(mut self, d1: &'a dyn Fn(f64) -> f64) -> Self {
        self.d1 = Some(d1);
        self
    }
    /// Adds the second derivative.
    pub fn with_d2(mut self, d2: &'a dyn Fn(f64) -> f64) -> Self {
        self.d2 = Some(d2);
        self
    }
}

/// Errors of a discrete field against an exact one, element-wise ("broken") for
/// discontinuous fields: $\|u - u_h\|_{L^2}$, $|u - u_h|_{H^1}$, $|u - u_h|_{H^2}$.
///
/// The thesis norms (004 Ch. 7, "$\|u\|_m^2 = \sum_{|\alpha| \le m}\|\partial^\alpha
/// u\|^2$") are the *full* norms [`ErrorNorms::h1`], [`ErrorNorms::h2`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorNorms {
    /// $\|u - u_h\|_{L^2}$.
    pub l2: f64,
    /// $|u - u_h|_{H^1} = \|\partial_x(u - u_h)\|_{L^2}$ (broken), if $u'$ was given.
    pub h1_semi: Option<f64>,
    /// $|u - u_h|_{H^2} = \|\partial_{xx}(u - u_h)\|_{L^2}$ (broken), if $u''$ was given.
    pub h2_semi: Option<f64>,
}

impl ErrorNorms {
    /// Full $H^1$ norm $\sqrt{\|\cdot\|_{L^2}^2 + |\cdot|_{H^1}^2}$.
    pub fn h1(&self) -> Option<f64> {
        self.h1_semi.map(|s| (self.l2 * self.l2 + s * s).sqrt())
    }
    /// Full $H^2$ norm $\sqrt{\|\cdot\|_{L^2}^2 + |\cdot|_{H^1}^2 + |\cdot|_{H^2}^2}$.
    pub fn h2(&self) -> Option<f64> {
        match (self.h1_semi, self.h2_semi) {
            (Some(a), Some(b)) => Some((self.l2 * self.l2 + a * a + b * b).sqrt()),
            _ => None,
        }
    }
}

/// A part of a primary field: a space on (a part of) the domain and where its DOFs live
/// in the state vector.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    pub space: Space1d,
    /// Offset of the field block in the state vector.
    pub offset: usize,
    /// Global DOF of the space ↦ index inside the block (`None`: removed by a strong BC).
    pub map: Vec<Option<usize>>,
}

#[derive(Debug, Clone)]
pub(crate) enum Source {
    /// Stored in state blocks.
    Primary(Vec<Piece>),
    /// `sign · ∂_x^deriv base`.
    Derived {
        base: Field,
        deriv: usize,
        sign: f64,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct FieldEntry {
    pub field: Field,
    pub source: Source,
}

/// A discretized 1D structure: the pH system and the spaces of its fields.
///
/// Built by [`crate::models::beam::euler_bernoulli::EulerBernoulli::build`], [`crate::models::beam::bar::Bar::build`],
/// [`crate::models::beam::timoshenko::Timoshenko::build`] and [`crate::models::beam::decomposition`].
#[derive(Debug, Clone)]
pub struct PfemModel {
    pub(crate) name: String,
    pub(crate) system: LinearPhSystem,
    pub(crate) fields: Vec<FieldEntry>,
    pub(crate) end_ports: Vec<EndPort>,
}

/// Structured description of a boundary port at one end (the port's input components,
/// in order), so that callers can build inputs from physical end quantities.
#[derive(Debug, Clone, PartialEq)]
pub struct EndPort {
    /// The end.
    pub end: End,
    /// Port name in the system (`"left"` / `"right"`).
    pub port: String,
    /// Input components in order: which component and which of its quantities is the
    /// input (the output is the conjugate quantity). Forces/moments are those applied to
    /// the structure (see [`crate::models::boundary`]).
    pub inputs: Vec<(Component, Quantity)>,
    /// Per input: `true` if the output is a Lagrange multiplier (a reaction), i.e. the
    /// input is a prescribed essential quantity.
    pub multiplier: Vec<bool>,
}

/// Quadrature points per element for error norms (exact for degree 19).
const NORM_POINTS: usize = 10;
/// Polynomial degree integrated exactly in projections of smooth functions.
const PROJECTION_DEGREE: usize = 12;

impl PfemModel {
    /// Descriptive name, e.g. `"Euler-Bernoulli HerDG1"`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pH system $E\dot e = (J - R)e + Bu$, $y = B^\top e$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }

    /// Consumes the model, returning the system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }

    /// Number of state variables.
    pub fn n_states(&self) -> usize {
        self.system.n_states()
    }

    /// Names of the ports, in input order.
    pub fn port_names(&self) -> Vec<String> {
        self.system.ports.names()
    }

    /// Boundary ports with their component structure (ends without a port are absent).
    pub fn end_ports(&self) -> &[EndPort] {
        &self.end_ports
    }

    /// The boundary port at an end, if any.
    pub fn end_port(&self, end: End) -> Option<&EndPort> {
        self.end_ports.iter().find(|p| p.end == end)
    }

    /// Fields that can be probed (primary and derived).
    pub fn fields(&self) -> Vec<Field> {
        self.fields.iter().map(|f| f.field).collect()
    }

    /// Largest element length over all pieces (for convergence studies).
    pub fn h_max(&self) -> f64 {
        self.fields
            .iter()
            .filter_map(|f| match &f.source {
                Source::Primary(p) => {
                    Some(p.iter().map(|p| p.space.mesh().h_max()).fold(0.0, f64::max))
                }
                Source::Derived { .. } => None,
            })
            .fold(0.0, f64::max)
    }

    fn entry(&self, field: Field) -> Result<&FieldEntry, FemError> {
        self.fields
            .iter()
            .find(|f| f.field == field)
            .ok_or_else(|| FemError::UnknownField {
                field: field.to_string(),
                model: self.name.clone(),
                available: join_names(self.fields.iter().map(|f| f.field)),
            })
    }

    /// Pieces of a primary field plus the derivative order and sign to apply.
    fn resolve(&self, field: Field) -> Result<(&[Piece], usize, f64), FemError> {
        match &self.entry(field)?.source {
            Source::Primary(p) => Ok((p, 0, 1.0)),
            Source::Derived { base, deriv, sign } => match &self.entry(*base)?.source {
                Source::Primary(p) => Ok((p, *deriv, *sign)),
                Source::Derived { .. } => Err(FemError::UnknownField {
                    field: field.to_string(),
                    model: self.name.clone(),
                    available: "(chained derived fields are not supported)".into(),
                }),
            },
        }
    }

    /// Index ranges of the state blocks holding a primary field (one per piece).
    pub fn field_ranges(&self, field: Field) -> Result<Vec<Range<usize>>, FemError> {
        let (pieces, deriv, _) = self.resolve(field)?;
        if deriv > 0 {
            return Err(self.derived_error(field));
        }
        Ok(pieces
            .iter()
            .map(|p| p.offset..p.offset + p.map.iter().flatten().count())
            .collect())
    }

    fn derived_error(&self, field: Field) -> FemError {
        let base = match self.entry(field).map(|e| &e.source) {
            Ok(Source::Derived { base, .. }) => base.to_string(),
            _ => "?".into(),
        };
        FemError::DerivedField {
            field: field.to_string(),
            model: self.name.clone(),
            base,
        }
    }

    fn piece_at(pieces: &[Piece], x: f64) -> Result<&Piece, FemError> {
        // Pieces are ordered left to right; an interface point belongs to the right piece.
        let mut found = None;
        for p in pieces {
            if p.space.mesh().contains(x) {
                found = Some(p);
            }
        }
        found.ok_or_else(|| {
            let a = pieces
                .first()
                .map(|p| p.space.mesh().a())
                .unwrap_or(f64::NAN);
            let b = pieces
                .last()
                .map(|p| p.space.mesh().b())
                .unwrap_or(f64::NAN);
            FemError::PointOutsideMesh { x, a, b }
        })
    }

    /// Probe: the functional $c$ (length `n_states`) with $c \cdot e$ = value of `field` at
    /// `x`. Discontinuous fields and derivatives use the element to the right of an
    /// interior node (the last element at the right end).
    pub fn probe(&self, field: Field, x: f64) -> Result<SparseVec, FemError> {
        self.probe_derivative(field, x, 0)
    }

    /// Probe of $\partial_x^{k}$ of a field at `x`.
    pub fn probe_derivative(&self, field: Field, x: f64, k: usize) -> Result<SparseVec, FemError> {
        let (pieces, deriv, sign) = self.resolve(field)?;
        let p = Self::piece_at(pieces, x)?;
        let f = p.space.point_functional(x, deriv + k)?;
        Ok(f.embed(&p.map, p.offset, self.n_states()).scaled(sign))
    }

    /// Value of `field` at `x` for the state `e`.
    pub fn evaluate(&self, e: &[f64], field: Field, x: f64) -> Result<f64, FemError> {
        self.check_len(e)?;
        Ok(self.probe(field, x)?.dot(e))
    }

    fn check_len(&self, e: &[f64]) -> Result<(), FemError> {
        if e.len() != self.n_states() {
            return Err(FemError::Length {
                what: format!("state vector of '{}'", self.name),
                expected: self.n_states(),
                found: e.len(),
            });
        }
        Ok(())
    }

    /// $L^2$ projection of `f` onto the (boundary-restricted) space of a primary field,
    /// returned as a full state vector that is zero outside the field's blocks; the state
    /// of several fields is the sum of their projections. Multipliers are left at zero.
    pub fn project(&self, field: Field, f: &dyn Fn(f64) -> f64) -> Result<Vec<f64>, FemError> {
        let (pieces, deriv, _) = self.resolve(field)?;
        if deriv > 0 {
            return Err(self.derived_error(field));
        }
        let mut out = vec![0.0; self.n_states()];
        for p in pieces {
            let keep: Vec<usize> = p
                .map
                .iter()
                .enumerate()
                .filter_map(|(i, m)| m.map(|_| i))
                .collect();
            if keep.is_empty() {
                continue;
            }
            let M = line::mass(&p.space, &Coefficient::Constant(1.0))?;
            let Mr = sparse::restrict(&M, &keep, &keep);
            let b = line::load_functional(&p.space, 0, f, PROJECTION_DEGREE)?.to_dense();
            let llt = Mr.sp_cholesky(faer::Side::Lower).map_err(|e| {
                FemError::LinAlg(format!("projection mass matrix of {field}: {e:?}"))
            })?;
            let mut rhs = faer::Mat::from_fn(keep.len(), 1, |i, _| b[keep[i]]);
            llt.solve_in_place(rhs.as_mut());
            for (k, &i) in keep.iter().enumerate() {
                out[p.offset + p.map[i].expect("kept DOF")] = rhs[(k, 0)];
            }
        }
        Ok(out)
    }

    /// Error norms of `field` in state `e` against the closed-form `exact`
    /// (element-wise quadrature with 10 points; broken for discontinuous fields).
    pub fn error_norms(
        &self,
        e: &[f64],
        field: Field,
        exact: &Exact,
    ) -> Result<ErrorNorms, FemError> {
        self.check_len(e)?;
        let (pieces, deriv, sign) = self.resolve(field)?;
        let q = GaussLegendre::new(NORM_POINTS)?;
        let (mut l2, mut h1, mut h2) = (0.0, 0.0, 0.0);
        for p in pieces {
            let s = &p.space;
            let n = s.n_local();
            let mut coef = vec![0.0; n];
            let mut v = vec![0.0; n];
            let mesh = s.mesh();
            for el in 0..mesh.n_elements() {
                for (j, c) in coef.iter_mut().enumerate() {
                    *c = p.map[s.dof(el, j)].map(|k| e[p.offset + k]).unwrap_or(0.0);
                }
                let (x0, _) = mesh.element(el);
                let h = mesh.h(el);
                for (&xi, &w) in q.points.iter().zip(&q.weights) {
                    let x = x0 + h * xi;
                    let mut uh = |d: usize| {
                        s.eval_local(el, xi, deriv + d, &mut v);
                        sign * v.iter().zip(&coef).map(|(a, b)| a * b).sum::<f64>()
                    };
                    let d0 = (exact.value)(x) - uh(0);
                    l2 += w * h * d0 * d0;
                    if let Some(d1) = exact.d1 {
                        let d = d1(x) - uh(1);
                        h1 += w * h * d * d;
                    }
                    if let Some(d2) = exact.d2 {
                        let d = d2(x) - uh(2);
                        h2 += w * h * d * d;
                    }
                }
            }
        }
        Ok(ErrorNorms {
            l2: l2.sqrt(),
            h1_semi: exact.d1.map(|_| h1.sqrt()),
            h2_semi: exact.d2.map(|_| h2.sqrt()),
        })
    }
}

// ---------------------------------------------------------------------------------------
// Open model → boundary conditions → PfemModel
// ---------------------------------------------------------------------------------------

/// One primary field block of an open model.
#[derive(Debug, Clone)]
pub(crate) struct OpenField {
    pub field: Field,
    /// Block name, e.g. `"e_w"`.
    pub block: String,
    /// Block meaning, e.g. `"transverse velocity [m/s]"`.
    pub meaning: String,
    pub space: Space1d,
}

impl OpenField {
    /// Field `field` stored in block `block` (meaning with unit) on `space`.
    pub fn new(field: Field, block: &str, meaning: &str, space: Space1d) -> Self {
        Self {
            field,
            block: block.into(),
            meaning: meaning.into(),
            space,
        }
    }
}

/// A boundary power component of an open model: its natural input enters through
/// `column` (length `n`), the conjugate output is `columnᵀ e`.
#[derive(Debug, Clone)]
pub(crate) struct OpenEndTerm {
    pub end: End,
    pub component: Component,
    pub natural: Quantity,
    pub column: SparseVec,
}

/// A distributed load port.
#[derive(Debug, Clone)]
pub(crate) struct OpenLoad {
    pub name: String,
    pub column: SparseVec,
    pub input: String,
    pub output: String,
}

/// A model before boundary conditions, both ends open.
pub(crate) struct OpenModel {
    pub name: String,
    pub kinematics: Kinematics,
    pub E: SparseMat,
    pub J: SparseMat,
    pub fields: Vec<OpenField>,
    pub derived: Vec<(Field, Field, usize, f64)>,
    pub ends: Vec<OpenEndTerm>,
    pub loads: Vec<OpenLoad>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Action {
    /// Port component in natural causality.
    Natural,
    /// Natural homogeneous condition, input dropped.
    Drop,
    /// Essential condition, DOF removed.
    Remove(usize),
    /// Essential condition by multiplier.
    Multiplier,
}

impl OpenModel {
    /// Offsets of the field blocks in the open state.
    fn offsets(&self) -> Vec<usize> {
        let mut off = vec![0];
        for f in &self.fields {
            off.push(off.last().unwrap() + f.space.n_dofs());
        }
        off
    }

    /// Applies boundary conditions and builds the model.
    pub fn finalize(
        self,
        left: EndCondition,
        right: EndCondition,
        imposition: Imposition,
    ) -> Result<PfemModel, FemError> {
        let n_open = self.E.nrows();
        let cond = |end: End| match end {
            End::Left => left,
            End::Right => right,
        };
        let mut actions = Vec::with_capacity(self.ends.len());
        for t in &self.ends {
            let a = match cond(t.end).prescribed(t.component) {
                None => Action::Natural,
                Some(q) if q == t.natural => match imposition {
                    Imposition::Strong => Action::Drop,
                    Imposition::Multiplier => Action::Natural,
                },
                Some(_) => match imposition {
                    Imposition::Multiplier => Action::Multiplier,
                    Imposition::Strong => {
                        let c = t.column.compressed();
                        match c.entries.as_slice() {
                            [(i, v)] if (v.abs() - 1.0).abs() < 1e-12 => Action::Remove(*i),
                            _ => {
                                return Err(FemError::BoundaryCondition {
                                    end: t.end.name().into(),
                                    component: t.component.name().into(),
                                    reason: format!(
                                        "the essential condition on the {} is not carried by a single DOF in this discretization; use Imposition::Multiplier",
                                        describe(t.component, t.natural.dual(), self.kinematics)
                                    ),
                                })
                            }
                        }
                    }
                },
            };
            actions.push(a);
        }
        // Kept DOFs and the old → new map.
        let mut removed = vec![false; n_open];
        for a in &actions {
            if let Action::Remove(i) = a {
                removed[*i] = true;
            }
        }
        let keep: Vec<usize> = (0..n_open).filter(|&i| !removed[i]).collect();
        let mut new_index = vec![None; n_open];
        for (k, &i) in keep.iter().enumerate() {
            new_index[i] = Some(k);
        }
        let n_keep = keep.len();
        // Multipliers, left end first, in component order.
        let mut mult: Vec<(usize, End)> = Vec::new(); // (term index, end)
        for end in [End::Left, End::Right] {
            for (k, t) in self.ends.iter().enumerate() {
                if t.end == end && actions[k] == Action::Multiplier {
                    mult.push((k, end));
                }
            }
        }
        let n = n_keep + mult.len();
        let E0 = sparse::restrict(&self.E, &keep, &keep);
        let J0 = sparse::restrict(&self.J, &keep, &keep);
        let mut et = Triplets::new(n, n);
        et.push_block(0, 0, &E0, 1.0);
        let mut jt = Triplets::new(n, n);
        jt.push_block(0, 0, &J0, 1.0);
        for (m, &(k, _)) in mult.iter().enumerate() {
            let g = self.ends[k].column.embed(&new_index, 0, n);
            for &(i, v) in &g.entries {
                jt.push(i, n_keep + m, v);
                jt.push(n_keep + m, i, -v);
            }
        }
        // Blocks.
        let off = self.offsets();
        let mut blocks = Vec::new();
        let mut pieces_at = Vec::new();
        for (b, f) in self.fields.iter().enumerate() {
            let range = off[b]..off[b + 1];
            let map: Vec<Option<usize>> = range.clone().map(|i| new_index[i]).collect();
            let new_off = map.iter().flatten().next().copied().unwrap_or(0);
            let local: Vec<Option<usize>> = map.iter().map(|m| m.map(|k| k - new_off)).collect();
            let len = local.iter().flatten().count();
            blocks.push(VarBlock::differential(
                f.block.clone(),
                f.meaning.clone(),
                len,
            ));
            pieces_at.push(Piece {
                space: f.space.clone(),
                offset: new_off,
                map: local,
            });
        }
        for end in [End::Left, End::Right] {
            let cnt = mult.iter().filter(|m| m.1 == end).count();
            if cnt > 0 {
                let what: Vec<&str> = mult
                    .iter()
                    .filter(|m| m.1 == end)
                    .map(|m| {
                        describe(
                            self.ends[m.0].component,
                            self.ends[m.0].natural,
                            self.kinematics,
                        )
                    })
                    .collect();
                blocks.push(VarBlock::algebraic(
                    format!("lambda_{}", end.name()),
                    format!(
                        "Lagrange multipliers at the {} end = reactions: {}",
                        end.name(),
                        what.join(", ")
                    ),
                    cnt,
                    2,
                ));
            }
        }
        // Ports and B.
        let mut ports = Vec::new();
        let mut end_ports = Vec::new();
        let mut cols: Vec<SparseVec> = Vec::new();
        for end in [End::Left, End::Right] {
            let mut ins = Vec::new();
            let mut outs = Vec::new();
            let mut info = EndPort {
                end,
                port: end.name().into(),
                inputs: Vec::new(),
                multiplier: Vec::new(),
            };
            for (k, t) in self.ends.iter().enumerate() {
                if t.end != end {
                    continue;
                }
                match actions[k] {
                    Action::Natural => {
                        cols.push(t.column.embed(&new_index, 0, n));
                        info.inputs.push((t.component, t.natural));
                        info.multiplier.push(false);
                        ins.push(describe(t.component, t.natural, self.kinematics).to_string());
                        outs.push(
                            describe(t.component, t.natural.dual(), self.kinematics).to_string(),
                        );
                    }
                    Action::Multiplier => {
                        let m = mult
                            .iter()
                            .position(|m| m.0 == k)
                            .expect("registered multiplier");
                        cols.push(SparseVec {
                            len: n,
                            entries: vec![(n_keep + m, 1.0)],
                        });
                        info.inputs.push((t.component, t.natural.dual()));
                        info.multiplier.push(true);
                        ins.push(format!(
                            "prescribed {}",
                            describe(t.component, t.natural.dual(), self.kinematics)
                        ));
                        outs.push(format!(
                            "{} (multiplier lambda_{})",
                            describe(t.component, t.natural, self.kinematics),
                            end.name()
                        ));
                    }
                    Action::Drop | Action::Remove(_) => {}
                }
            }
            if !ins.is_empty() {
                let at = if end == End::Left {
                    "x = x_0"
                } else {
                    "x = x_n"
                };
                ports.push(Port::new(
                    end.name(),
                    ins.len(),
                    format!("({}) at {at}", ins.join(", ")),
                    format!("({}) at {at}", outs.join(", ")),
                ));
                end_ports.push(info);
            }
        }
        for l in &self.loads {
            cols.push(l.column.embed(&new_index, 0, n));
            ports.push(Port::new(
                l.name.clone(),
                1,
                l.input.clone(),
                l.output.clone(),
            ));
        }
        let mut bt = Triplets::new(n, cols.len());
        for (j, c) in cols.iter().enumerate() {
            for &(i, v) in &c.entries {
                bt.push(i, j, v);
            }
        }
        let system = lossless_system(et.build(), jt.build(), bt.build(), ports, blocks)?;
        let mut fields: Vec<FieldEntry> = self
            .fields
            .iter()
            .zip(pieces_at)
            .map(|(f, p)| FieldEntry {
                field: f.field,
                source: Source::Primary(vec![p]),
            })
            .collect();
        for &(field, base, deriv, sign) in &self.derived {
            fields.push(FieldEntry {
                field,
                source: Source::Derived { base, deriv, sign },
            });
        }
        Ok(PfemModel {
            name: self.name,
            system,
            fields,
            end_ports,
        })
    }
}

/// Helper: places the block matrices $E$, $J$, $R$ of an open model (field blocks of the
/// given sizes, concatenated).
pub(crate) struct BlockAssembler {
    offsets: Vec<usize>,
    pub E: Triplets,
    pub J: Triplets,
    pub R: Triplets,
}

impl BlockAssembler {
    /// For fields of the given sizes.
    pub fn new(sizes: &[usize]) -> Self {
        let mut offsets = vec![0];
        for s in sizes {
            offsets.push(offsets.last().unwrap() + s);
        }
        let n = *offsets.last().unwrap();
        Self {
            offsets,
            E: Triplets::new(n, n),
            J: Triplets::new(n, n),
            R: Triplets::new(n, n),
        }
    }
    /// Total size.
    pub fn n(&self) -> usize {
        *self.offsets.last().unwrap()
    }
    /// Offset of block `b` in the open state.
    pub fn offset(&self, b: usize) -> usize {
        self.offsets[b]
    }
    /// $R_{bb} \mathrel{+}= M$.
    pub fn dissipation(&mut self, b: usize, M: &SparseMat) {
        let o = self.offsets[b];
        self.R.push_block(o, o, M, 1.0);
    }
    /// $E_{bb} \mathrel{+}= M$.
    pub fn mass(&mut self, b: usize, M: &SparseMat) {
        let o = self.offsets[b];
        self.E.push_block(o, o, M, 1.0);
    }
    /// $E_{bb} \mathrel{+}= \langle c\,\phi_i, \phi_j\rangle$: the mass matrix of the 1D
    /// space `space` of field `b` weighted by the constant `c`.
    pub(crate) fn line_mass(&mut self, b: usize, space: &Space1d, c: f64) -> Result<(), FemError> {
        self.mass(b, &line::mass(space, &Coefficient::Constant(c))?);
        Ok(())
    }
    /// $J_{rc} \mathrel{+}= s A$ and $J_{cr} \mathrel{-}= s A^\top$ (skew by construction).
    pub fn skew(&mut self, r: usize, c: usize, A: &SparseMat, s: f64) {
        let (or, oc) = (self.offsets[r], self.offsets[c]);
        self.J.push_block(or, oc, A, s);
        self.J.push_block_transpose(oc, or, A, -s);
    }
    /// The open model of the assembled $E$, $J$ with its field blocks, end terms and load
    /// ports (no derived fields).
    pub fn open_model(
        &self,
        name: String,
        kinematics: Kinematics,
        fields: Vec<OpenField>,
        ends: Vec<OpenEndTerm>,
        loads: Vec<OpenLoad>,
    ) -> OpenModel {
        OpenModel {
            name,
            kinematics,
            E: self.E.build(),
            J: self.J.build(),
            fields,
            derived: Vec::new(),
            ends,
            loads,
        }
    }
    /// A functional of field block `b` embedded in the full state (length `n`).
    pub fn embed(&self, b: usize, f: &SparseVec) -> SparseVec {
        SparseVec {
            len: self.n(),
            entries: f
                .entries
                .iter()
                .map(|&(i, v)| (self.offsets[b] + i, v))
                .collect(),
        }
    }
}

/// A load or source port of a builder: its name and its profile (a closure, so `Debug`
/// shows the name only).
#[derive(Clone)]
pub struct NamedProfile<P> {
    /// Port name.
    pub name: String,
    /// Profile of the load density.
    pub profile: P,
}

impl<P> NamedProfile<P> {
    /// Port `name` with `profile`.
    pub fn new(name: impl Into<String>, profile: P) -> Self {
        Self {
            name: name.into(),
            profile,
        }
    }
}

impl<P> fmt::Debug for NamedProfile<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("NamedProfile").field(&self.name).finish()
    }
}

/// The lossless pH system ($R = 0$) $E\dot e = Je + Bu$, $y = B^\top e$ with named ports
/// (columns of $B$ in order) and variable blocks.
pub(crate) fn lossless_system(
    E: SparseMat,
    J: SparseMat,
    B: SparseMat,
    ports: Vec<Port>,
    blocks: Vec<VarBlock>,
) -> Result<LinearPhSystem, CoreError> {
    let n = E.nrows();
    LinearPhSystem::new(
        E,
        J,
        sparse::zeros(n, n),
        B,
        PortSet::from_ports(ports)?,
        blocks,
    )
}

/// A spatial load profile $f(x)$.
pub type Profile = std::sync::Arc<dyn Fn(f64) -> f64 + Send + Sync>;

/// A distributed load port: input = scalar amplitude $a(t)$ of the load density
/// $a(t) f(x)$; $B$ column $= \langle \phi, f\rangle$ on the test functions of the target
/// velocity field; output $= \int f\,e\,dx$ (the power is $a \int f e$).
#[derive(Clone)]
pub struct DistributedLoad {
    /// Port name, e.g. `"load"`.
    pub name: String,
    /// Velocity field the load works on: [`Field::Velocity`] (force per length, N/m) or
    /// [`Field::AngularVelocity`] (Timoshenko only: moment per length, N m/m).
    pub field: Field,
    /// The profile $f(x)$.
    pub profile: Profile,
}

impl fmt::Debug for DistributedLoad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DistributedLoad {{ name: {:?}, field: {:?} }}",
            self.name, self.field
        )
    }
}

impl DistributedLoad {
    /// A transverse (or axial, for a bar) force density $a(t) f(x)$ \[N/m\].
    pub fn force(name: impl Into<String>, profile: Profile) -> Self {
        Self {
            name: name.into(),
            field: Field::Velocity,
            profile,
        }
    }

    pub(crate) fn open_load(
        &self,
        space: &Space1d,
        asm: &BlockAssembler,
        block: usize,
    ) -> Result<OpenLoad, FemError> {
        let f = &*self.profile;
        let c = line::load_functional(space, 0, f, PROJECTION_DEGREE)?;
        let (unit, what) = match self.field {
            Field::AngularVelocity => ("N m/m", "moment"),
            _ => ("N/m", "force"),
        };
        Ok(OpenLoad {
            name: self.name.clone(),
            column: asm.embed(block, &c),
            input: format!(
                "amplitude a(t) of the distributed {what} density a(t) f(x) [{unit} per unit f]"
            ),
            output: format!(
                "integral of f(x) times the {} over the domain",
                self.field.describe()
            ),
        })
    }
}

/// The load ports of `loads`, each on the block of its field in `targets` (field, space,
/// block); a load on another field is an error naming `model` and the fields it accepts.
pub(crate) fn open_loads(
    loads: &[DistributedLoad],
    targets: &[(Field, &Space1d, usize)],
    asm: &BlockAssembler,
    model: &str,
) -> Result<Vec<OpenLoad>, FemError> {
    loads
        .iter()
        .map(|l| match targets.iter().find(|t| t.0 == l.field) {
            Some(&(_, space, block)) => l.open_load(space, asm, block),
            None => Err(FemError::UnknownField {
                field: l.field.to_string(),
                model: format!("{model} (distributed loads)"),
                available: join_names(targets.iter().map(|t| t.0)),
            }),
        })
        .collect()
}

/// Test fixture: for a lossless system, the internal power $e^\top(Je + Bu)$ equals the
/// port power $y^\top u$ ($e^\top Je = 0$) for a pseudo-random state and input; asserts
/// agreement to `rel` relative to $\max(|y^\top u|, 1)$.
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_port_power(sys: &LinearPhSystem, rel: f64) {
    let n = sys.n_states();
    let e: Vec<f64> = (0..n)
        .map(|i| ((i * 7919) % 113) as f64 / 113.0 - 0.5)
        .collect();
    let u: Vec<f64> = (0..sys.n_inputs())
        .map(|i| (i as f64 * 0.37).sin())
        .collect();
    let mut rhs = vec![0.0; n];
    sys.rhs(&e, &u, &mut rhs);
    let p_int: f64 = e.iter().zip(&rhs).map(|(a, b)| a * b).sum();
    let y = sys.output(&e);
    let p_port: f64 = y.iter().zip(&u).map(|(a, b)| a * b).sum();
    assert!(
        (p_int - p_port).abs() < rel * p_port.abs().max(1.0),
        "{p_int} vs {p_port}"
    );
}

//! Euler–Bernoulli convergence study (thesis 004 §7.1, §7.4.1, Table 7.1 and App. B
//! Tables B.1–B.5; paper 000 §6.1; summary §5.1.1).
//!
//! Simply supported beam on $[0, L]$ with the manufactured solution (thesis (7.25)–(7.26))
//! $$w = \sin(\pi x/L)\sin t,\quad e_w = \sin(\pi x/L)\cos t,\quad
//!   e_\kappa = -EI(\pi/L)^2\sin(\pi x/L)\sin t,$$
//! driven by the distributed force $f = (EI(\pi/L)^4 - \rho A)\sin(\pi x/L)\sin t$ that
//! balances $\rho A\,\partial_{tt}w + \partial_{xx}(EI\,\partial_{xx}w) = f$ (a load port of
//! `phlex-fem` with profile $\sin(\pi x/L)$ and amplitude $(EI(\pi/L)^4 - \rho A)\sin t$).
//! Crank–Nicolson ([`LinearMidpoint`]) with $\Delta t = h/10$ up to $t_f = 1$ s; the error
//! is the discrete $L^\infty$-in-time norm $\max_{t_i}\|u(t_i) - u_h(t_i)\|_X$ over all
//! time levels including $t_0$ (thesis §7.3, "$L^\infty_{\Delta t}(X)$"), in the thesis's
//! *full* Sobolev norms (thesis §7 preliminaries: $\|u\|_{H^2}^2 = \|u\|^2 + \|u'\|^2 +
//! \|u''\|^2$):
//!
//! | discretization | $e_w$ | $e_\kappa$ |
//! |---|---|---|
//! | HerDG1 | $H^2$ | $L^2$ |
//! | DG1Her | $L^2$ | $H^2$ |
//! | CGCG$k$ | $H^1$ | $H^1$ |
//!
//! Both CN states and the exact solution are taken at the same time levels $t_i = i\Delta t$
//! (the CN state at $t_{i}$ is the endpoint value, not the midpoint).
//!
//! **Initial state and first step.** The thesis projects $e_w(\cdot, 0)$ in $L^2$ onto the
//! *whole* finite element space (no boundary condition) and sets $e_\kappa = 0$ (exact at
//! $t = 0$); the homogeneous Dirichlet values are imposed from the first step on by
//! overwriting the boundary rows, so the first step still sees the nonzero boundary values
//! of the projection through its right-hand side. [`InitialState::ThesisProjection`]
//! reproduces both: the error at $t_0$ is that of the unconstrained projection (computed on
//! the open model, both ends without conditions), and the constrained integration starts
//! from the state whose first CN step equals the thesis's first step (see
//! `thesis_start_state`). [`InitialState::ConstrainedProjection`] projects onto the
//! constrained space instead. Because $|\cos t|$ is largest at $t = 0$, the $e_w$ maxima
//! sit at $t_0$ or the first steps and these details show: HerDG1, $1/h = 4$, $e_w$ in $H^2$
//! is 0.2044 (+0.7 % from Table B.1) with the thesis start, 0.2105 (+3.7 %) if the
//! boundary values of the projection are simply dropped, and 0.1834 (−9.6 %, order 2.10
//! instead of 2.21 at $1/h = 8$) with the constrained projection.
//!
//! **Load sampling.** The thesis's $\theta$-scheme averages the endpoint loads,
//! $\frac12(f_n + f_{n+1}) = f(t_{n+1/2})\cos(\Delta t/2)$ ([`LoadSampling::Trapezoidal`]).
//! The load is large ($EI\pi^4 \approx 196\,\rho A$), so the $O(\Delta t^2)$ difference to
//! midpoint sampling ([`LoadSampling::Midpoint`]) is not negligible for the most accurate
//! element: CGCG3, $1/h = 32$, $e_w$ is $7.915\cdot10^{-6}$ (thesis $7.91\cdot10^{-6}$) with
//! trapezoidal and $1.16\cdot10^{-5}$ (+47 %) with midpoint sampling. With the trapezoidal
//! load the time error still shows at CGCG3, $1/h = 64$ (order 2.63; thesis 2.64).
//!
//! **The CGCG $e_\kappa$ column** of Tables B.3–B.5 is the curvature error
//! $\|e_\kappa - e_\kappa^h\|/EI$, see [`KappaColumn::Curvature`].
use std::f64::consts::PI;
use std::fmt::Write as _;

use phlex_fem::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use phlex_fem::{EndCondition, ErrorNorms, Exact, Field, PfemModel};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::{InputFn, Signal};
use serde::Serialize;

use super::error::{require_positive, StudyError};

/// Beam data of thesis Table 7.1 (SI units).
///
/// | field | symbol | unit | Table 7.1 |
/// |---|---|---|---|
/// | `rho` | $\rho$ | kg/m³ | 5600 |
/// | `area` | $A$ | m² | 50 mm² |
/// | `young` | $E$ | Pa | 136 GPa |
/// | `inertia` | $I$ | m⁴ | 4.16 mm⁴ |
/// | `length` | $L$ | m | 1 |
///
/// (The thesis's script computes $I = b h^3/12$ with $b = 50$ mm, $h = 1$ mm, i.e.
/// 4.1667 mm⁴; the table rounds it to 4.16 mm⁴. The 0.16 % difference scales $e_\kappa$
/// and is invisible at three digits.)
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EbBeam {
    /// Density $\rho$ [kg/m³].
    pub rho: f64,
    /// Cross-section area $A$ \[m²\].
    pub area: f64,
    /// Young's modulus $E$ \[Pa\].
    pub young: f64,
    /// Second moment of area $I$ \[m⁴\].
    pub inertia: f64,
    /// Length $L$ \[m\].
    pub length: f64,
}

impl Default for EbBeam {
    /// Thesis Table 7.1.
    fn default() -> Self {
        Self {
            rho: 5600.0,
            area: 50e-6,
            young: 136e9,
            inertia: 4.16e-12,
            length: 1.0,
        }
    }
}

impl EbBeam {
    /// Mass per length $\rho A$ [kg/m].
    pub fn rho_a(&self) -> f64 {
        self.rho * self.area
    }
    /// Bending stiffness $EI$ [N m²].
    pub fn ei(&self) -> f64 {
        self.young * self.inertia
    }
    fn validate(&self) -> Result<(), StudyError> {
        require_positive("rho", self.rho)?;
        require_positive("area", self.area)?;
        require_positive("young", self.young)?;
        require_positive("inertia", self.inertia)?;
        require_positive("length", self.length)
    }
}

/// A Sobolev norm of an error (full norms, as in the thesis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Norm {
    /// $\|u\|_{L^2}$.
    L2,
    /// $\|u\|_{H^1} = (\|u\|^2 + \|u'\|^2)^{1/2}$.
    H1,
    /// $\|u\|_{H^2} = (\|u\|^2 + \|u'\|^2 + \|u''\|^2)^{1/2}$.
    H2,
}

impl Norm {
    /// `"L2"`, `"H1"`, `"H2"`.
    pub fn name(&self) -> &'static str {
        match self {
            Norm::L2 => "L2",
            Norm::H1 => "H1",
            Norm::H2 => "H2",
        }
    }
    /// Highest derivative the norm needs.
    fn order(&self) -> usize {
        match self {
            Norm::L2 => 0,
            Norm::H1 => 1,
            Norm::H2 => 2,
        }
    }
    /// Picks the norm from computed error components.
    fn of(&self, e: &ErrorNorms) -> f64 {
        match self {
            Norm::L2 => e.l2,
            Norm::H1 => e.h1().unwrap_or(f64::NAN),
            Norm::H2 => e.h2().unwrap_or(f64::NAN),
        }
    }
}

/// The norms of thesis App. B for $(e_w, e_\kappa)$ (conjectures (7.3), (7.6), (7.9)).
pub fn thesis_norms(d: EbDiscretization) -> [Norm; 2] {
    match d {
        EbDiscretization::HerDg1 => [Norm::H2, Norm::L2],
        EbDiscretization::Dg1Her => [Norm::L2, Norm::H2],
        EbDiscretization::CgCg(_) => [Norm::H1, Norm::H1],
    }
}

/// How the initial state is built (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum InitialState {
    /// Unconstrained $L^2$ projection (error at $t_0$ measured on it); the first
    /// constrained step sees its boundary values as in the thesis — what the thesis does.
    #[default]
    ThesisProjection,
    /// $L^2$ projection onto the space with the boundary conditions built in.
    ConstrainedProjection,
}

/// How the distributed load enters a Crank–Nicolson step $[t_n, t_{n+1}]$.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum LoadSampling {
    /// $\frac12(f(t_n) + f(t_{n+1}))$, the thesis's $\theta$-scheme load. For
    /// $f \propto \sin t$ this equals $f(t_{n+1/2})\cos(\Delta t/2)$, which is how it is fed
    /// to the midpoint integrator (that samples inputs at $t_{n+1/2}$).
    #[default]
    Trapezoidal,
    /// $f(t_{n+1/2})$.
    Midpoint,
}

/// Settings of the study (defaults: thesis §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EbConvergenceSetup {
    /// Beam data.
    pub beam: EbBeam,
    /// Final time $t_f$ \[s\] (thesis: 1).
    pub t_final: f64,
    /// Time step as a fraction of the mesh size, $\Delta t = c\,h$ [s/m] (thesis: 0.1).
    pub dt_per_h: f64,
    /// Initial state.
    pub initial: InitialState,
    /// Load sampling in time.
    pub load: LoadSampling,
}

impl Default for EbConvergenceSetup {
    fn default() -> Self {
        Self {
            beam: EbBeam::default(),
            t_final: 1.0,
            dt_per_h: 0.1,
            initial: InitialState::default(),
            load: LoadSampling::default(),
        }
    }
}

/// Result of one mesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EbRun {
    /// Number of elements $1/h$ (for $L = 1$).
    pub n_elements: usize,
    /// Mesh size $h = L/n$ \[m\].
    pub h: f64,
    /// Time step \[s\].
    pub dt: f64,
    /// Number of CN steps.
    pub steps: usize,
    /// $\max_{t_i}\|\cdot\|$ of the $e_w$ and $e_\kappa$ errors in [`thesis_norms`].
    pub errors: [f64; 2],
    /// Time levels where the maxima occur \[s\].
    pub t_of_max: [f64; 2],
}

/// Closed-form $e_w$, $e_\kappa$ and derivatives at time `t` (thesis (7.26)).
struct ExactEb {
    k: f64,
    ei: f64,
}

impl ExactEb {
    /// $(u, u', u'')$ of $e_w$ (`field = 0`) or $e_\kappa$ (`field = 1`) at `(x, t)`.
    fn eval(&self, field: usize, x: f64, t: f64, d: usize) -> f64 {
        let k = self.k;
        let (amp, time) = match field {
            0 => (1.0, t.cos()),
            _ => (-self.ei * k * k, t.sin()),
        };
        let s = match d {
            0 => (k * x).sin(),
            1 => k * (k * x).cos(),
            _ => -k * k * (k * x).sin(),
        };
        amp * time * s
    }
}

fn field_norm(
    model: &PfemModel,
    e: &[f64],
    field: usize,
    norm: Norm,
    ex: &ExactEb,
    t: f64,
) -> Result<f64, StudyError> {
    let v = |x: f64| ex.eval(field, x, t, 0);
    let d1 = |x: f64| ex.eval(field, x, t, 1);
    let d2 = |x: f64| ex.eval(field, x, t, 2);
    let mut exact = Exact::new(&v);
    if norm.order() >= 1 {
        exact = exact.with_d1(&d1);
    }
    if norm.order() >= 2 {
        exact = exact.with_d2(&d2);
    }
    let f = if field == 0 {
        Field::Velocity
    } else {
        Field::Moment
    };
    Ok(norm.of(&model.error_norms(e, f, &exact)?))
}

/// Maps a state of the open model (no boundary conditions) to the constrained model by
/// dropping the DOFs removed by strong Dirichlet conditions.
///
/// The removed DOFs are identified as the single-DOF end traces of the open model whose
/// trace vanishes identically in the constrained model; the map is verified by comparing
/// both models at interior points for a state with those DOFs zeroed.
fn restrict_open_state(
    open: &PfemModel,
    constrained: &PfemModel,
    e_open: &[f64],
    length: f64,
) -> Result<(Vec<f64>, Vec<usize>), StudyError> {
    let model_err = |reason: String| StudyError::Model {
        model: constrained.name().to_string(),
        reason,
    };
    let mut removed = vec![false; open.n_states()];
    for field in [Field::Velocity, Field::Moment] {
        for x in [0.0, length] {
            let po = open.probe(field, x)?.compressed();
            let max = po.entries.iter().fold(0.0f64, |m, p| m.max(p.1.abs()));
            let big: Vec<(usize, f64)> = po
                .entries
                .iter()
                .copied()
                .filter(|p| p.1.abs() > 1e-12 * max)
                .collect();
            let pc = constrained.probe(field, x)?.compressed();
            let cmax = pc.entries.iter().fold(0.0f64, |m, p| m.max(p.1.abs()));
            if let [(i, v)] = big.as_slice() {
                if (v.abs() - 1.0).abs() < 1e-12 && cmax < 1e-12 {
                    removed[*i] = true;
                }
            }
        }
    }
    let n_kept = removed.iter().filter(|r| !**r).count();
    if n_kept != constrained.n_states() {
        return Err(model_err(format!(
            "cannot match the open model ({} states, {} end DOFs removed) with the constrained one ({} states)",
            open.n_states(),
            open.n_states() - n_kept,
            constrained.n_states()
        )));
    }
    let mut zeroed = e_open.to_vec();
    let mut e_c = Vec::with_capacity(n_kept);
    for (i, r) in removed.iter().enumerate() {
        if *r {
            zeroed[i] = 0.0;
        } else {
            e_c.push(e_open[i]);
        }
    }
    // Verification at interior points (0.1 L, ..., 0.9 L, off the nodes of dyadic meshes).
    let scale = e_open.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    for field in [Field::Velocity, Field::Moment] {
        for k in 0..9 {
            let x = length * (0.1 + 0.1 * k as f64 + 0.0123);
            let a = open.evaluate(&zeroed, field, x)?;
            let b = constrained.evaluate(&e_c, field, x)?;
            if (a - b).abs() > 1e-10 * scale {
                return Err(model_err(format!(
                    "open/constrained state map check failed for {field} at x = {x}: {a} vs {b}"
                )));
            }
        }
    }
    let keep = (0..removed.len()).filter(|&i| !removed[i]).collect();
    Ok((e_c, keep))
}

/// The start state $\tilde e_0$ that makes the first constrained CN step equal to the
/// thesis's first step from the unconstrained projection $e_0$.
///
/// The thesis solves the open-model step $(E - \frac{\Delta t}2 J)e_1 = (E + \frac{\Delta t}2
/// J)e_0 + \Delta t\,b$ with the rows and columns of the Dirichlet DOFs replaced by
/// $e_{1,D} = 0$, so the kept rows see the boundary values $e_{0,D} \ne 0$ of the
/// projection through the right-hand side. With the constrained matrices $E_c$, $J_c$
/// (kept rows and columns), $\tilde e_0$ solves
/// $(E_c + \frac{\Delta t}2 J_c)\tilde e_0 = [(E + \frac{\Delta t}2 J)e_0]_{\text{kept}}$.
fn thesis_start_state(
    open: &PfemModel,
    constrained: &PfemModel,
    e_open: &[f64],
    keep: &[usize],
    dt: f64,
) -> Result<Vec<f64>, StudyError> {
    use phlex_core::sparse;
    let so = open.system();
    let sc = constrained.system();
    let Ao = sparse::add(1.0, &so.E, 0.5 * dt, &so.j_minus_r());
    let full = sparse::mul_vec(&Ao, e_open);
    let mut rhs: Vec<f64> = keep.iter().map(|&i| full[i]).collect();
    let Ac = sparse::add(1.0, &sc.E, 0.5 * dt, &sc.j_minus_r());
    let mut lu = phlex_solve::linsolve::SparseLu::from_matrix(
        "E + dt/2 J (thesis start state)",
        Ac.as_ref(),
    )?;
    lu.solve_in_place(&mut rhs)?;
    Ok(rhs)
}

/// Runs one discretization on one mesh of `n_elements` elements.
pub fn eb_run(
    d: EbDiscretization,
    n_elements: usize,
    setup: &EbConvergenceSetup,
) -> Result<EbRun, StudyError> {
    setup.beam.validate()?;
    require_positive("t_final", setup.t_final)?;
    require_positive("dt_per_h", setup.dt_per_h)?;
    if n_elements == 0 {
        return Err(StudyError::Parameter {
            name: "n_elements".into(),
            value: 0.0,
            requirement: "n_elements >= 1".into(),
        });
    }
    let beam = setup.beam;
    let L = beam.length;
    let k = PI / L;
    let ex = ExactEb { k, ei: beam.ei() };
    let profile: phlex_fem::Profile = std::sync::Arc::new(move |x: f64| (k * x).sin());
    let base = EulerBernoulli::new(beam.rho_a(), beam.ei(), L, n_elements)
        .discretization(d)
        .load("load", profile);
    let model = base
        .clone()
        .ends(EndCondition::SimplySupported, EndCondition::SimplySupported)
        .build()?;
    let sys = model.system();
    // Inputs: only the load port (both ends carry homogeneous conditions).
    let h = L / n_elements as f64;
    let dt = setup.dt_per_h * h;
    let amp = (beam.ei() * k.powi(4) - beam.rho_a())
        * match setup.load {
            LoadSampling::Trapezoidal => (0.5 * dt).cos(),
            LoadSampling::Midpoint => 1.0,
        };
    let mut signals = Vec::new();
    for p in sys.ports.iter() {
        if p.name == "load" && p.dim == 1 {
            signals.push(Signal::from_fn(move |t| amp * t.sin()));
        } else {
            return Err(StudyError::Model {
                model: model.name().into(),
                reason: format!(
                    "unexpected port '{}' (a simply supported beam should only have the load port)",
                    p.name
                ),
            });
        }
    }
    let input = InputFn::new(signals);
    let norms = thesis_norms(d);
    // Initial state and the error at t0.
    let ew0 = |x: f64| ex.eval(0, x, 0.0, 0);
    let mut max_err = [0.0f64; 2];
    let mut t_max = [0.0f64; 2];
    let e0 = match setup.initial {
        InitialState::ConstrainedProjection => {
            let mut e = model.project(Field::Velocity, &ew0)?;
            let ek = model.project(Field::Moment, &|x| ex.eval(1, x, 0.0, 0))?;
            e.iter_mut().zip(&ek).for_each(|(a, b)| *a += b);
            for f in 0..2 {
                max_err[f] = field_norm(&model, &e, f, norms[f], &ex, 0.0)?;
            }
            e
        }
        InitialState::ThesisProjection => {
            let open = base.ends(EndCondition::Port, EndCondition::Port).build()?;
            let mut eo = open.project(Field::Velocity, &ew0)?;
            let ek = open.project(Field::Moment, &|x| ex.eval(1, x, 0.0, 0))?;
            eo.iter_mut().zip(&ek).for_each(|(a, b)| *a += b);
            for f in 0..2 {
                max_err[f] = field_norm(&open, &eo, f, norms[f], &ex, 0.0)?;
            }
            let (_, keep) = restrict_open_state(&open, &model, &eo, L)?;
            thesis_start_state(&open, &model, &eo, &keep, dt)?
        }
    };
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end: setup.t_final,
            h: dt,
            output_every: 1,
        },
        ..Default::default()
    };
    let mut cn = LinearMidpoint::new(sys, input, params)?;
    let mut failure: Option<StudyError> = None;
    let mut observer = |t: f64, e: &[f64]| {
        if t == 0.0 || failure.is_some() {
            return;
        }
        for f in 0..2 {
            match field_norm(&model, e, f, norms[f], &ex, t) {
                Ok(v) => {
                    if v > max_err[f] || v.is_nan() {
                        max_err[f] = v;
                        t_max[f] = t;
                    }
                }
                Err(err) => failure = Some(err),
            }
        }
    };
    let res = cn.run(&e0, &mut observer)?;
    if let Some(err) = failure {
        return Err(err);
    }
    Ok(EbRun {
        n_elements,
        h,
        dt,
        steps: res.stats.steps,
        errors: max_err,
        t_of_max: t_max,
    })
}

/// One row of a convergence table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConvergenceRow {
    /// $1/h$ (number of elements for $L = 1$ m).
    pub inv_h: usize,
    /// Time step \[s\].
    pub dt: f64,
    /// CN steps.
    pub steps: usize,
    /// Errors of $(e_w, e_\kappa)$.
    pub errors: [f64; 2],
    /// Observed orders $\log(e_{prev}/e)/\log(h_{prev}/h)$ ($\log_2(e_h/e_{h/2})$ for
    /// halved meshes); `None` in the first row.
    pub orders: [Option<f64>; 2],
    /// Time levels of the maxima \[s\].
    pub t_of_max: [f64; 2],
}

/// A convergence table of one discretization.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConvergenceTable {
    /// Thesis name of the discretization, e.g. `"HerDG1"`.
    pub discretization: String,
    /// Norms of $(e_w, e_\kappa)$.
    pub norms: [Norm; 2],
    /// Study settings.
    pub setup: EbConvergenceSetup,
    /// Rows in the order of the requested meshes.
    pub rows: Vec<ConvergenceRow>,
}

/// Observed order between two meshes.
fn order(e_prev: f64, e: f64, n_prev: usize, n: usize) -> f64 {
    (e_prev / e).ln() / (n as f64 / n_prev as f64).ln()
}

/// Runs one discretization on the meshes `inv_h` ($1/h$ values, increasing) and returns the
/// table with observed orders.
pub fn eb_convergence(
    d: EbDiscretization,
    inv_h: &[usize],
    setup: &EbConvergenceSetup,
) -> Result<ConvergenceTable, StudyError> {
    if inv_h.is_empty() {
        return Err(StudyError::Parameter {
            name: "inv_h".into(),
            value: 0.0,
            requirement: "at least one mesh".into(),
        });
    }
    for (i, w) in inv_h.windows(2).enumerate() {
        if w[1] <= w[0] {
            return Err(StudyError::Parameter {
                name: format!("inv_h[{}]", i + 1),
                value: w[1] as f64,
                requirement: format!("inv_h strictly increasing (inv_h[{i}] = {})", w[0]),
            });
        }
    }
    let mut rows: Vec<ConvergenceRow> = Vec::with_capacity(inv_h.len());
    for &n in inv_h {
        let r = eb_run(d, n, setup)?;
        let orders = match rows.last() {
            Some(p) => [
                Some(order(p.errors[0], r.errors[0], p.inv_h, n)),
                Some(order(p.errors[1], r.errors[1], p.inv_h, n)),
            ],
            None => [None, None],
        };
        rows.push(ConvergenceRow {
            inv_h: n,
            dt: r.dt,
            steps: r.steps,
            errors: r.errors,
            orders,
            t_of_max: r.t_of_max,
        });
    }
    Ok(ConvergenceTable {
        discretization: d.name(),
        norms: thesis_norms(d),
        setup: *setup,
        rows,
    })
}

/// Which quantity the second column of a thesis table measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum KappaColumn {
    /// The bending moment $e_\kappa = EI\,\partial_{xx}w$ [N m] (Tables B.1, B.2).
    Moment,
    /// The curvature $\kappa = e_\kappa/EI = \partial_{xx}w$ [1/m]: Tables B.3–B.5 (CGCG)
    /// are headed $e_\kappa$ but their values are the moment errors divided by
    /// $EI = 0.566$ N m². Over all 16 printed rows (three degrees, $1/h$ = 2..128) the
    /// ratio thesis / (phlex moment error) is $1.764 \pm 0.006$, i.e. $1/EI = 1.7675$
    /// within the three printed digits, while the $e_w$ columns agree to < 2 %; a norm or
    /// projection difference would not give a constant factor across degrees and meshes.
    Curvature,
}

/// A reference table printed in thesis App. B.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReferenceTable {
    /// Discretization name.
    pub discretization: &'static str,
    /// Where the values are printed.
    pub source: &'static str,
    /// What the $e_\kappa$ column measures.
    pub kappa_column: KappaColumn,
    /// The printed rows.
    pub rows: &'static [ReferenceRow],
}

/// One printed row of a thesis table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReferenceRow {
    /// $1/h$.
    pub inv_h: usize,
    /// Printed errors of $(e_w, e_\kappa)$ (three significant digits).
    pub errors: [f64; 2],
    /// Printed orders (two decimals; `None` in the first row).
    pub orders: [Option<f64>; 2],
}

/// Shorthand for the tables below.
const fn rr(inv_h: usize, errors: [f64; 2], orders: [Option<f64>; 2]) -> ReferenceRow {
    ReferenceRow {
        inv_h,
        errors,
        orders,
    }
}

impl ReferenceTable {
    /// The row for `inv_h`, if printed.
    pub fn row(&self, inv_h: usize) -> Option<&ReferenceRow> {
        self.rows.iter().find(|r| r.inv_h == inv_h)
    }
}

const HERDG1: &[ReferenceRow] = &[
    rr(4, [2.03e-01, 7.58e-02], [None, None]),
    rr(8, [4.39e-02, 1.90e-02], [Some(2.21), Some(1.99)]),
    rr(16, [1.02e-02, 4.77e-03], [Some(2.09), Some(1.99)]),
    rr(32, [2.52e-03, 1.19e-03], [Some(2.02), Some(1.99)]),
    rr(64, [6.27e-04, 2.98e-04], [Some(2.00), Some(1.99)]),
    rr(128, [1.56e-04, 7.47e-05], [Some(2.00), Some(1.99)]),
];
const DG1HER: &[ReferenceRow] = &[
    rr(4, [1.61e-02, 7.48e-01], [None, None]),
    rr(8, [4.05e-03, 1.88e-01], [Some(1.99), Some(1.99)]),
    rr(16, [1.01e-03, 4.71e-02], [Some(1.99), Some(1.99)]),
    rr(32, [2.53e-04, 1.17e-02], [Some(1.99), Some(1.99)]),
    rr(64, [6.34e-05, 2.94e-03], [Some(1.99), Some(1.99)]),
    rr(128, [1.58e-05, 7.37e-04], [Some(1.99), Some(1.99)]),
];
const CGCG1: &[ReferenceRow] = &[
    rr(4, [5.93e-01, 4.16e+00], [None, None]),
    rr(8, [2.57e-01, 2.08e+00], [Some(1.20), Some(0.99)]),
    rr(16, [1.26e-01, 1.04e+00], [Some(1.02), Some(0.99)]),
    rr(32, [6.29e-02, 5.22e-01], [Some(1.00), Some(0.99)]),
    rr(64, [3.14e-02, 2.61e-01], [Some(1.00), Some(0.99)]),
    rr(128, [1.57e-02, 1.30e-01], [Some(1.00), Some(0.99)]),
];
const CGCG2: &[ReferenceRow] = &[
    rr(4, [5.66e-02, 4.20e-01], [None, None]),
    rr(8, [1.38e-02, 1.05e-01], [Some(2.03), Some(1.99)]),
    rr(16, [3.34e-03, 2.65e-02], [Some(2.05), Some(1.99)]),
    rr(32, [8.16e-04, 6.62e-03], [Some(2.03), Some(1.99)]),
    rr(64, [2.01e-04, 1.65e-03], [Some(2.01), Some(1.99)]),
    rr(128, [5.01e-05, 4.14e-04], [Some(2.00), Some(2.00)]),
];
const CGCG3: &[ReferenceRow] = &[
    rr(2, [3.16e-02, 2.19e-01], [None, None]),
    rr(4, [4.04e-03, 2.80e-02], [Some(2.97), Some(2.96)]),
    rr(8, [5.06e-04, 3.51e-03], [Some(2.99), Some(2.99)]),
    rr(16, [6.33e-05, 4.39e-04], [Some(3.00), Some(2.99)]),
    rr(32, [7.91e-06, 5.50e-05], [Some(3.00), Some(2.99)]),
    rr(64, [1.26e-06, 6.88e-06], [Some(2.64), Some(2.99)]),
];

/// The thesis's table for a discretization (App. B, Tables B.1–B.5), `None` for CGCG
/// degrees other than 1–3.
pub fn thesis_reference(d: EbDiscretization) -> Option<ReferenceTable> {
    let (rows, source) = match d {
        EbDiscretization::HerDg1 => (HERDG1, "thesis 004 Table B.1"),
        EbDiscretization::Dg1Her => (DG1HER, "thesis 004 Table B.2"),
        EbDiscretization::CgCg(1) => (CGCG1, "thesis 004 Table B.3"),
        EbDiscretization::CgCg(2) => (CGCG2, "thesis 004 Table B.4"),
        EbDiscretization::CgCg(3) => (CGCG3, "thesis 004 Table B.5"),
        EbDiscretization::CgCg(_) => return None,
    };
    Some(ReferenceTable {
        kappa_column: match d {
            EbDiscretization::CgCg(_) => KappaColumn::Curvature,
            _ => KappaColumn::Moment,
        },
        discretization: match d {
            EbDiscretization::HerDg1 => "HerDG1",
            EbDiscretization::Dg1Her => "DG1Her",
            EbDiscretization::CgCg(1) => "CGCG1",
            EbDiscretization::CgCg(2) => "CGCG2",
            _ => "CGCG3",
        },
        source,
        rows,
    })
}

/// The thesis's mesh sizes $1/h$ for a discretization (4..128; 2..64 for CGCG3).
pub fn thesis_meshes(d: EbDiscretization) -> Vec<usize> {
    match d {
        EbDiscretization::CgCg(3) => vec![2, 4, 8, 16, 32, 64],
        _ => vec![4, 8, 16, 32, 64, 128],
    }
}

/// One value of a table compared with the thesis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// $1/h$.
    pub inv_h: usize,
    /// `"e_w"` or `"e_kappa"`.
    pub field: &'static str,
    /// Our error, in the quantity of the thesis column (moment error divided by $EI$ for
    /// [`KappaColumn::Curvature`]).
    pub ours: f64,
    /// Printed thesis error.
    pub thesis: f64,
    /// $(\text{ours} - \text{thesis})/\text{thesis}$.
    pub rel_diff: f64,
    /// Our observed order (if not the first row).
    pub our_order: Option<f64>,
    /// Printed thesis order.
    pub thesis_order: Option<f64>,
}

impl ConvergenceTable {
    /// Scale that converts our errors to the quantities of a reference table's columns.
    pub fn column_scale(&self, reference: &ReferenceTable) -> [f64; 2] {
        match reference.kappa_column {
            KappaColumn::Moment => [1.0, 1.0],
            KappaColumn::Curvature => [1.0, 1.0 / self.setup.beam.ei()],
        }
    }

    /// Every value that has a thesis counterpart, row by row (our values converted with
    /// [`ConvergenceTable::column_scale`]; orders are unaffected by the scale).
    pub fn compare(&self, reference: &ReferenceTable) -> Vec<Comparison> {
        let scale = self.column_scale(reference);
        let mut out = Vec::new();
        for r in &self.rows {
            if let Some(ReferenceRow {
                errors: e,
                orders: o,
                ..
            }) = reference.row(r.inv_h)
            {
                for (f, name) in ["e_w", "e_kappa"].into_iter().enumerate() {
                    let ours = r.errors[f] * scale[f];
                    out.push(Comparison {
                        inv_h: r.inv_h,
                        field: name,
                        ours,
                        thesis: e[f],
                        rel_diff: (ours - e[f]) / e[f],
                        our_order: r.orders[f],
                        thesis_order: o[f],
                    });
                }
            }
        }
        out
    }

    /// Markdown table; with a reference, the thesis values and orders are printed next to
    /// ours with the relative difference.
    pub fn to_markdown(&self, reference: Option<&ReferenceTable>) -> String {
        let [nw, nk] = self.norms;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "### {} — ‖e_w − e_w^h‖ in L∞({}), ‖e_κ − e_κ^h‖ in L∞({})\n",
            self.discretization,
            nw.name(),
            nk.name()
        );
        let fmt_o = |o: Option<f64>| o.map(|v| format!("{v:.2}")).unwrap_or_else(|| "—".into());
        match reference {
            Some(rf) => {
                let scale = self.column_scale(rf);
                let curv = rf.kappa_column == KappaColumn::Curvature;
                let _ = writeln!(
                    s,
                    "| 1/h | e_w (phlex) | order | e_w ({}) | order | diff | {} (phlex) | order | {} (thesis) | order | diff |",
                    rf.source,
                    if curv { "e_κ/EI" } else { "e_κ" },
                    if curv { "\"e_κ\" = e_κ/EI" } else { "e_κ" },
                );
                let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
                for r in &self.rows {
                    let mut line = format!("| {} ", r.inv_h);
                    for f in 0..2 {
                        let ours = r.errors[f] * scale[f];
                        let _ = write!(line, "| {:.3e} | {} ", ours, fmt_o(r.orders[f]));
                        match rf.row(r.inv_h) {
                            Some(ReferenceRow {
                                errors: e,
                                orders: o,
                                ..
                            }) => {
                                let _ = write!(
                                    line,
                                    "| {:.2e} | {} | {:+.1} % ",
                                    e[f],
                                    fmt_o(o[f]),
                                    100.0 * (ours - e[f]) / e[f]
                                );
                            }
                            None => line.push_str("| — | — | — "),
                        }
                    }
                    line.push('|');
                    let _ = writeln!(s, "{line}");
                }
                if curv {
                    let _ = writeln!(
                        s,
                        "\nThe thesis's CGCG e_κ column is the curvature error ‖κ − κ_h‖ = ‖e_κ − e_κ^h‖/EI \
                         (EI = {:.5} N m²); phlex's moment errors ‖e_κ − e_κ^h‖ are {:.3e} … {:.3e} N m.",
                        self.setup.beam.ei(),
                        self.rows.first().map(|r| r.errors[1]).unwrap_or(f64::NAN),
                        self.rows.last().map(|r| r.errors[1]).unwrap_or(f64::NAN),
                    );
                }
            }
            None => {
                let _ = writeln!(s, "| 1/h | Δt | e_w | order | e_κ | order |");
                let _ = writeln!(s, "|---|---|---|---|---|---|");
                for r in &self.rows {
                    let _ = writeln!(
                        s,
                        "| {} | {:.3e} | {:.3e} | {} | {:.3e} | {} |",
                        r.inv_h,
                        r.dt,
                        r.errors[0],
                        fmt_o(r.orders[0]),
                        r.errors[1],
                        fmt_o(r.orders[1])
                    );
                }
            }
        }
        s
    }

    /// Pretty JSON of the table.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

//! A Kirchhoff plate welded to a rigid rod along an edge (thesis 004 §10.2.1,
//! eqs. (10.3)–(10.10), Table 10.5).
//!
//! The rod (eq. (10.4)) lies on the edge $\Gamma_{int}$ and moves with heave $v_G$ and a
//! small tilt rate $\omega_G$ about the in-plane axis perpendicular to it through its centre
//! of mass $G$ ([`RodAxis`]; for the thesis's rod along $y$ the tilt is about $x$ and the
//! edge velocity is $v_G + \omega_G(y - y_G)$). The continuous coupling is
//! $u_{rod} = -\mathcal W y_{\partial}$, $u_{\partial} = \mathcal W^* y_{rod}$ with
//! $\mathcal W q = (\int_\Gamma q\,ds, \int_\Gamma (y - y_G)\,q\,ds)$ and
//! $\mathcal W^*(v_G, \omega_G) = v_G + \omega_G(y - y_G)$ (eq. (10.5)): the plate velocity on
//! the edge is imposed by the rod and the rod receives the resultant force and moment of the
//! edge shear $\tilde q_n$.
//!
//! Discretely (eqs. (10.6)–(10.9)) the plate carries the essential velocity port of the
//! edge (built with `KirchhoffHhj::port(tag, EdgeCondition::SimplySupported)`: multiplier
//! block `lambda_{tag}_wt` $= \tilde q_n$ in the $CG_k$ trace basis $\psi^l$, constraint
//! $0 = -G^\top e + M_\Gamma u$, output $y = M_\Gamma\lambda$; the companion `{tag}_Mnn`
//! port is left open with zero input, i.e. $M_{nn} = 0$ on the edge: the rod's rotation
//! about its own axis is not modelled, so $\partial_n w_t$ is free there and no bending
//! moment is transmitted). With
//! $W^{\top,l} = \int_\Gamma [\psi^l, \psi^l(y - y_G)]\,ds$ the coupling
//! $M_\Gamma u = W^\top e_{rod}$, $u_{rod} = -W\lambda$ is the gyrator
//! $u_a = -Cy_b$, $u_b = C^\top y_a$ of [`phlex_core::interconnect::gyrator`] with
//! $C = -M_\Gamma^{-1}W^\top$, giving eq. (10.9):
//! $J_{\lambda,rod} = W^\top$, $J_{rod,\lambda} = -W$. $W^\top$ is computed from the plate's
//! own constraint rows, $W^\top_{:,j} = -(J e_{f_j})_\lambda = G^\top e_{f_j}$ with $e_{f_j}$
//! the interpolant of $f_0 = 1$, $f_1 = y - y_G$ (exact: both are affine, hence in the
//! $CG_k$ trace space). For a rod along $x$ ([`RodAxis::AlongX`]) the lever function is
//! $f_1 = -(x - x_G)$ ($\omega_G$ about $+y$).
//!
//! The thesis discretises with Argyris × DG3 × CG2 on 6 elements and eliminates the
//! multipliers by projection before RK45; here the plate is HHJ and the index-2 system is
//! integrated directly by the implicit midpoint rule ([`simulate_welded`]).
use faer::linalg::solvers::Solve;
use faer::Mat;
use std::sync::Arc;

use phlex_core::interconnect::Composite;
use phlex_core::sparse;
use phlex_core::LinearPhSystem;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{
    EdgeCondition, KirchhoffField, KirchhoffHhj, KirchhoffModel, KirchhoffParams,
};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};

use super::lumped::RigidRod;
use super::PlateAssemblyError;

/// A plate, possibly welded to a rod: blocks `plate.*` and (with the rod) `rod.body`.
#[derive(Debug, Clone)]
pub struct WeldedPlate {
    /// The (coupled) system.
    pub system: LinearPhSystem,
    /// The plate model (its states are the first `plate.n_states()`).
    pub plate: KirchhoffModel,
    /// The rod, if welded.
    pub rod: Option<RigidRod>,
}

/// Direction of a welded rod and the position of its centre of mass $G$.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RodAxis {
    /// Rod parallel to $y$ (edge $x$ = const), $G$ at ordinate `y_g`; tilt about $+x$,
    /// edge velocity $v_G + \omega_G(y - y_G)$ (thesis eq. (10.5)).
    AlongY {
        /// $y_G$ \[m\].
        y_g: f64,
    },
    /// Rod parallel to $x$ (edge $y$ = const), $G$ at abscissa `x_g`; tilt about $+y$,
    /// edge velocity $v_G - \omega_G(x - x_G)$.
    AlongX {
        /// $x_G$ \[m\].
        x_g: f64,
    },
}

impl RodAxis {
    /// The lever function $f_1$: the edge velocity per unit $\omega_G$.
    pub fn lever(&self, x: [f64; 2]) -> f64 {
        match *self {
            Self::AlongY { y_g } => x[1] - y_g,
            Self::AlongX { x_g } => -(x[0] - x_g),
        }
    }
}

/// Welds `rod` to the edges tagged `tag` of `plate` (module docs). The plate must have been
/// built with `.port(tag, EdgeCondition::SimplySupported)`; the edges must lie on the line
/// of `axis` (a straight edge).
pub fn weld_rigid_rod(
    plate: &KirchhoffModel,
    tag: &str,
    axis: RodAxis,
    rod: &RigidRod,
) -> Result<WeldedPlate, PlateAssemblyError> {
    let s = plate.system();
    let port = format!("{tag}_wt");
    let lam = format!("lambda_{tag}_wt");
    let missing = |what: &str, name: &str, available: Vec<String>| {
        PlateAssemblyError::MissingPlateItem {
        context: format!("rod weld on '{tag}' (build the plate with .port(\"{tag}\", EdgeCondition::SimplySupported))"),
        what: what.into(),
        name: name.into(),
        available: available.join(", "),
    }
    };
    s.block_range(&lam).ok_or_else(|| {
        missing(
            "variable block",
            &lam,
            s.blocks.iter().map(|b| b.name.clone()).collect(),
        )
    })?;
    let MG = plate
        .port_trace_mass(&port)
        .map_err(|_| missing("port", &port, s.ports.names()))?;
    let WT = rod_coupling_matrix(plate, tag, axis)?;
    let M = sparse::to_dense(MG);
    let C = -M.partial_piv_lu().solve(&WT);
    let system = Composite::new()
        .add("plate", s)?
        .add("rod", &rod.system("rod")?)?
        .gyrator(&format!("plate.{port}"), "rod.u", &C)?
        .build()?;
    Ok(WeldedPlate {
        system,
        plate: plate.clone(),
        rod: Some(*rod),
    })
}

/// The coupling matrix $W^\top$ (trace DOFs × 2) of a rod welded to the edges `tag`:
/// $W^{\top,l} = \int_\Gamma[\psi^l, \psi^l f_1]\,ds$ ($f_1$ = [`RodAxis::lever`]) over the trace basis of the
/// multiplier block `lambda_{tag}_wt` (computed from the plate's constraint rows, module
/// docs).
pub fn rod_coupling_matrix(
    plate: &KirchhoffModel,
    tag: &str,
    axis: RodAxis,
) -> Result<Mat<f64>, PlateAssemblyError> {
    let s = plate.system();
    let lam = format!("lambda_{tag}_wt");
    let r = s
        .block_range(&lam)
        .ok_or_else(|| PlateAssemblyError::MissingPlateItem {
            context: format!(
                "rod weld on '{tag}' (build the plate with .port(\"{tag}\", EdgeCondition::SimplySupported))"
            ),
            what: "variable block".into(),
            name: lam.clone(),
            available: s
                .blocks
                .iter()
                .map(|b| b.name.clone())
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    // Wᵀ from the constraint rows: −(J e_f)_λ = ∫ ψ^l f ds
    let mut WT = Mat::<f64>::zeros(r.len(), 2);
    for j in 0..2 {
        let e = plate.interpolate_state(
            &|x: [f64; 2]| if j == 0 { 1.0 } else { axis.lever(x) },
            None,
        )?;
        let Je = sparse::mul_vec(&s.J, &e);
        for (i, k) in r.clone().enumerate() {
            WT[(i, j)] = -Je[k];
        }
    }
    Ok(WT)
}

/// The Table 10.5 set-up (thesis 004 §10.2.1.3): $[0, 1]^2$ plate, $E = 70$ GPa,
/// $\rho = 2700$ kg/m³, $\nu = 0.35$, $h = 5$ cm, clamped at $x = 0$; rod of mass 50 kg and
/// length 1 m on $x = L_x$ ($J_G = mL^2/12$, not stated in the thesis); load
/// $f_w = 10^5(y + 10(y - L_y/2)^2)$ Pa for $t < 0.2\,t_{end}$, $t_{end} = 10$ ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table105 {
    /// Elements per side (uniform `n × n` mesh; the thesis used 6 Argyris elements).
    pub n: usize,
    /// HHJ degree $k$.
    pub degree: usize,
}

impl Table105 {
    /// Final time $t_{end}$ \[s\].
    pub const T_END: f64 = 0.01;
    /// The load acts for $t < 0.2\,t_{end}$.
    pub const T_OFF: f64 = 0.2 * Self::T_END;
    /// Plate side \[m\].
    pub const L: f64 = 1.0;

    /// Plate material.
    pub fn params() -> Result<KirchhoffParams, PlateAssemblyError> {
        KirchhoffParams::isotropic(70e9, 0.35, 2700.0, 0.05)
            .map_err(|e| PlateAssemblyError::Fem(e.into()))
    }

    /// The rod: 50 kg, 1 m, uniform.
    pub fn rod() -> RigidRod {
        RigidRod::uniform(50.0, 1.0)
    }

    /// Load density $f_w(y) = 10^5(y + 10(y - 1/2)^2)$ \[Pa\] (eq. (10.10)).
    pub fn load_density(x: [f64; 2]) -> f64 {
        1e5 * (x[1] + 10.0 * (x[1] - 0.5 * Self::L).powi(2))
    }

    /// Load amplitude: 1 for $t < 0.2\,t_{end}$, then 0.
    pub fn load_amplitude(t: f64) -> f64 {
        if t < Self::T_OFF {
            1.0
        } else {
            0.0
        }
    }

    fn builder(&self) -> Result<KirchhoffHhj, PlateAssemblyError> {
        let mesh = Mesh2d::rectangle(0.0, Self::L, 0.0, Self::L, self.n, self.n, Diagonal::Right)?;
        Ok(KirchhoffHhj::new(Self::params()?, &mesh, self.degree)?
            .clamped("left")
            .load("load", Arc::new(Self::load_density)))
    }

    /// The plate welded to the rod on `right` (port `plate.load`, and `plate.right_Mnn` to
    /// be held at zero).
    pub fn with_rod(&self) -> Result<WeldedPlate, PlateAssemblyError> {
        let plate = self
            .builder()?
            .port("right", EdgeCondition::SimplySupported)
            .build()?;
        weld_rigid_rod(
            &plate,
            "right",
            RodAxis::AlongY { y_g: 0.5 * Self::L },
            &Self::rod(),
        )
    }

    /// The same plate with a free edge `right` (no rod), port `plate.load`.
    pub fn without_rod(&self) -> Result<WeldedPlate, PlateAssemblyError> {
        let plate = self.builder()?.build()?;
        let system = Composite::new().add("plate", plate.system())?.build()?;
        Ok(WeldedPlate {
            system,
            plate,
            rod: None,
        })
    }
}

/// Result of [`simulate_welded`].
#[derive(Debug, Clone, PartialEq)]
pub struct WeldedRun {
    /// Output times \[s\].
    pub t: Vec<f64>,
    /// Hamiltonian (plate + rod) \[J\].
    pub energy: Vec<f64>,
    /// Largest $|w|$ over the velocity DOFs (nodal deflections) \[m\].
    pub max_deflection: Vec<f64>,
    /// Largest deviation of the deflection on the edge $x = L$ from its least-squares
    /// affine fit in $y$ \[m\] (0 for a straight edge).
    pub edge_bow: Vec<f64>,
    /// Work supplied by the load up to each output time \[J\].
    pub load_work: Vec<f64>,
    /// Largest step residual of the discrete power balance relative to the energy scale.
    pub power_balance_residual: f64,
    /// Final state.
    pub state: Vec<f64>,
}

/// Integrates a plate (welded or not) from rest with the implicit midpoint rule (step `dt`)
/// over $[0, t_{end}]$, the load port `plate.load` driven by `load` (for Table 10.5:
/// `Signal::from_fn(Table105::load_amplitude)`), other inputs zero. The deflection $w$ is accumulated with the trapezoidal rule on $e_w$ (the
/// midpoint rule's own quadrature, so $w$ is exact for the discrete velocities).
pub fn simulate_welded(
    w: &WeldedPlate,
    dt: f64,
    t_end: f64,
    load: Signal,
) -> Result<WeldedRun, PlateAssemblyError> {
    let sys = &w.system;
    let m = sys.n_inputs();
    let cols = sys.ports.range("plate.load")?;
    let mut input = InputFn::zeros(m);
    for k in cols {
        input.set(k, load.clone());
    }
    let params = MidpointParams {
        step: FixedStepParams {
            t0: 0.0,
            t_end,
            h: dt,
            output_every: 1,
        },
        ..Default::default()
    };
    let sw = w.plate.velocity_space();
    let xs = sw.interpolate(&|x, o| o[0] = x[0]);
    let ys = sw.interpolate(&|x, o| o[0] = x[1]);
    let xmax = xs.iter().cloned().fold(f64::MIN, f64::max);
    let edge: Vec<usize> = (0..xs.len())
        .filter(|&i| (xs[i] - xmax).abs() < 1e-12)
        .collect();
    let np = w.plate.n_states();
    let mut defl = vec![0.0; sw.n_dofs()];
    let mut prev: Option<Vec<f64>> = None;
    let mut run = WeldedRun {
        t: Vec::new(),
        energy: Vec::new(),
        max_deflection: Vec::new(),
        edge_bow: Vec::new(),
        load_work: Vec::new(),
        power_balance_residual: 0.0,
        state: Vec::new(),
    };
    let mut err: Option<PlateAssemblyError> = None;
    let mut cn = LinearMidpoint::new(sys, input, params)?;
    let res = cn.run(&vec![0.0; sys.n_states()], &mut |t: f64, e: &[f64]| {
        let v = match w
            .plate
            .field_coefficients(&e[..np], KirchhoffField::Velocity)
        {
            Ok(v) => v,
            Err(x) => {
                err.get_or_insert(x.into());
                return;
            }
        };
        if let Some(p) = &prev {
            let h = t - run.t.last().copied().unwrap_or(0.0);
            for ((d, a), b) in defl.iter_mut().zip(p).zip(&v) {
                *d += 0.5 * h * (a + b);
            }
        }
        run.t.push(t);
        run.energy.push(sys.hamiltonian(e));
        run.max_deflection
            .push(defl.iter().fold(0.0f64, |a, b| a.max(b.abs())));
        run.edge_bow.push(affine_residual(&edge, &ys, &defl));
        prev = Some(v);
    })?;
    if let Some(e) = err {
        return Err(e);
    }
    let l = &res.ledger;
    let mut cum = 0.0;
    run.load_work.push(0.0);
    let li = l.port_names.iter().position(|n| n == "plate.load");
    for s in l.supplied.iter().skip(1) {
        cum = li.map(|k| s[k]).unwrap_or(cum);
        run.load_work.push(cum);
    }
    run.power_balance_residual = l.max_relative_residual();
    run.state = res.state;
    Ok(run)
}

/// Largest deviation of `w[dofs]` from its least-squares affine fit in `y[dofs]`.
fn affine_residual(dofs: &[usize], y: &[f64], w: &[f64]) -> f64 {
    let n = dofs.len() as f64;
    if dofs.len() < 3 {
        return 0.0;
    }
    let (mut sy, mut syy, mut sw, mut syw) = (0.0, 0.0, 0.0, 0.0);
    for &i in dofs {
        sy += y[i];
        syy += y[i] * y[i];
        sw += w[i];
        syw += y[i] * w[i];
    }
    let den = n * syy - sy * sy;
    let b = (n * syw - sy * sw) / den;
    let a = (sw - b * sy) / n;
    dofs.iter()
        .map(|&i| (w[i] - a - b * y[i]).abs())
        .fold(0.0, f64::max)
}

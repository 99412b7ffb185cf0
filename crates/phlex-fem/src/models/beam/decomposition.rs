//! Mixed boundary conditions by virtual domain decomposition and a gyrator
//! (thesis 004 §6.2.2, §8.2.1 "EB motion planning"; summary §3.4, §5.4).
//!
//! $\[0, L\]$ is split at an interface $x_i$. The part whose outer end has force-type
//! inputs (e.g. a free end) is discretized with HerDG1, the other part (velocity-type
//! inputs, e.g. a velocity-controlled end) with DG1Her. Each part is an ODE in uniform
//! causality; at the interface the HerDG1 part takes the force/moment $(F_N, M_N)$ applied
//! to it and returns its velocities, the DG1Her part takes velocities and returns the
//! force/moment $(F_D, M_D)$ applied to it. Continuity of velocities and action–reaction
//! give the gyrator
//! $$u_N = -C\,y_D,\qquad u_D = C^\top y_N,\qquad C = I_2,$$
//! (`phlex_core::interconnect::gyrator` with $a = N$, $b = D$). With this crate's port
//! convention (forces applied *to* each part, same component order $(F, M)$ /
//! $(\dot w, \dot\theta)$ at both ends) $C$ is the identity; the summary's
//! $C = \operatorname{diag}(1, -1)$ belongs to the thesis's signed interface outputs
//! $y_D = (e_\kappa, -\partial_x e_\kappa)$, $y_N = (\partial_x e_w, e_w)$. The coupled
//! $J = \operatorname{diag}(J_N, J_D) - B_N C B_D^\top + B_D C^\top B_N^\top$ is skew, so
//! the result is a pH ODE without multipliers.
//!
//! The DAE alternative for the same problem is a single
//! [`crate::models::beam::euler_bernoulli::EulerBernoulli`] with `Imposition::Multiplier` (e.g. DG1Her
//! with the free end imposed by multipliers, or HerDG1 with the prescribed-velocity end
//! imposed by multipliers).
use crate::error::{require_positive, FemError};
use crate::mesh::interval::End;
use crate::mesh::interval::Mesh1d;
use crate::models::beam::euler_bernoulli::{EbDiscretization, EulerBernoulli};
use crate::models::boundary::EndCondition;
use crate::models::model::{DistributedLoad, FieldEntry, PfemModel, Profile, Source};
use phlex_core::interconnect::Composite;
use phlex_core::sparse::{self, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet};

/// Euler–Bernoulli beam on $\[0, L\]$ split at `interface`, HerDG1 on the `force_side`
/// part and DG1Her on the other, coupled by a gyrator.
///
/// Ports: `"left"` / `"right"` for the outer ends (as for [`EulerBernoulli`], strong
/// imposition of any essential condition), plus the distributed loads (one port per load
/// acting on both parts). Blocks: `"left_part.e_w"`, `"left_part.e_kappa"`,
/// `"right_part.e_w"`, `"right_part.e_kappa"`.
#[derive(Debug, Clone)]
pub struct EbDecomposition {
    /// $\rho A$ \[kg/m\].
    pub rho_a: f64,
    /// $EI$ \[N m²\].
    pub ei: f64,
    /// Length $L$ \[m\].
    pub length: f64,
    /// Interface position $0 < x_i < L$ \[m\].
    pub interface: f64,
    /// Elements on $\[0, x_i\]$.
    pub n_left: usize,
    /// Elements on $\[x_i, L\]$.
    pub n_right: usize,
    /// The part discretized with HerDG1 (force inputs at its outer end).
    pub force_side: End,
    /// Condition at $x = 0$.
    pub left: EndCondition,
    /// Condition at $x = L$.
    pub right: EndCondition,
    /// Distributed transverse loads.
    pub loads: Vec<DistributedLoad>,
}

impl EbDecomposition {
    /// Free left end (HerDG1 part), velocity-controlled right end (DG1Her part, port
    /// `"right"`), interface at the middle — the motion-planning setting of thesis §8.2.1.
    pub fn new(rho_a: f64, ei: f64, length: f64, n_left: usize, n_right: usize) -> Self {
        Self {
            rho_a,
            ei,
            length,
            interface: 0.5 * length,
            n_left,
            n_right,
            force_side: End::Left,
            left: EndCondition::Free,
            right: EndCondition::Port,
            loads: Vec::new(),
        }
    }

    /// Sets the interface position.
    pub fn interface(mut self, x: f64) -> Self {
        self.interface = x;
        self
    }

    /// Sets the outer end conditions.
    pub fn ends(mut self, left: EndCondition, right: EndCondition) -> Self {
        self.left = left;
        self.right = right;
        self
    }

    /// Chooses which part uses HerDG1.
    pub fn force_side(mut self, side: End) -> Self {
        self.force_side = side;
        self
    }

    /// Adds a distributed transverse force port.
    pub fn load(mut self, name: impl Into<String>, profile: Profile) -> Self {
        self.loads.push(DistributedLoad::force(name, profile));
        self
    }

    /// Assembles both parts and couples them.
    pub fn build(&self) -> Result<PfemModel, FemError> {
        require_positive("length", self.length)?;
        if !(self.interface > 0.0 && self.interface < self.length) {
            return Err(FemError::InvalidParameter {
                name: "interface".into(),
                value: self.interface,
                requirement: format!("0 < interface < length = {}", self.length),
            });
        }
        let mesh_l = Mesh1d::uniform_interval(0.0, self.interface, self.n_left)
            .map_err(|e| rename(e, "n_left"))?;
        let mesh_r = Mesh1d::uniform_interval(self.interface, self.length, self.n_right)
            .map_err(|e| rename(e, "n_right"))?;
        let (dl, dr) = match self.force_side {
            End::Left => (EbDiscretization::HerDg1, EbDiscretization::Dg1Her),
            End::Right => (EbDiscretization::Dg1Her, EbDiscretization::HerDg1),
        };
        let part = |mesh: Mesh1d, d, l, r| EulerBernoulli {
            loads: self.loads.clone(),
            ..EulerBernoulli::new(self.rho_a, self.ei, self.length, 1)
                .mesh(mesh)
                .discretization(d)
                .ends(l, r)
        };
        let ml = part(mesh_l, dl, self.left, EndCondition::Port).build()?;
        let mr = part(mesh_r, dr, EndCondition::Port, self.right).build()?;
        let (a, b) = match self.force_side {
            End::Left => ("left_part.right", "right_part.left"),
            End::Right => ("right_part.left", "left_part.right"),
        };
        let C = faer::Mat::<f64>::identity(2, 2);
        let coupled = Composite::new()
            .add("left_part", ml.system())?
            .add("right_part", mr.system())?
            .gyrator(a, b, &C)?
            .build()?;
        let system = self.rename_ports(&coupled)?;
        let shift = ml.n_states();
        let mut fields: Vec<FieldEntry> = Vec::new();
        for (fl, fr) in ml.fields.iter().zip(&mr.fields) {
            let source = match (&fl.source, &fr.source) {
                (Source::Primary(pl), Source::Primary(pr)) => {
                    let mut p = pl.clone();
                    p.extend(pr.iter().cloned().map(|mut q| {
                        q.offset += shift;
                        q
                    }));
                    Source::Primary(p)
                }
                (s, _) => s.clone(),
            };
            fields.push(FieldEntry {
                field: fl.field,
                source,
            });
        }
        Ok(PfemModel {
            name: format!(
                "Euler-Bernoulli {} on [0, {}] + {} on [{}, {}] (gyrator)",
                dl.name(),
                self.interface,
                dr.name(),
                self.interface,
                self.length
            ),
            system,
            fields,
            end_ports: ml
                .end_ports
                .iter()
                .filter(|p| p.end == End::Left)
                .chain(mr.end_ports.iter().filter(|p| p.end == End::Right))
                .cloned()
                .collect(),
        })
    }

    /// Outer ports back to `"left"`/`"right"`; each load's two part ports merged into one.
    fn rename_ports(&self, s: &LinearPhSystem) -> Result<LinearPhSystem, FemError> {
        let n = s.n_states();
        let mut cols: Vec<Vec<std::ops::Range<usize>>> = Vec::new();
        let mut ports = Vec::new();
        for (outer, name) in [("left_part.left", "left"), ("right_part.right", "right")] {
            if let Some(p) = s.ports.get(outer) {
                cols.push(vec![s.ports.range(outer)?]);
                ports.push(Port {
                    name: name.into(),
                    ..p.clone()
                });
            }
        }
        for l in &self.loads {
            let pl = format!("left_part.{}", l.name);
            let pr = format!("right_part.{}", l.name);
            let p = s
                .ports
                .get(&pl)
                .ok_or_else(|| FemError::LinAlg(format!("missing port {pl}")))?;
            cols.push(vec![s.ports.range(&pl)?, s.ports.range(&pr)?]);
            ports.push(Port {
                name: l.name.clone(),
                ..p.clone()
            });
        }
        let m: usize = ports.iter().map(|p| p.dim).sum();
        let mut t = Triplets::new(n, m);
        let mut c0 = 0;
        for (ranges, p) in cols.iter().zip(&ports) {
            for r in ranges {
                t.push_block(0, c0, &sparse::slice(&s.B, 0..n, r.clone()), 1.0);
            }
            c0 += p.dim;
        }
        Ok(LinearPhSystem::new(
            s.E.clone(),
            s.J.clone(),
            s.R.clone(),
            t.build(),
            PortSet::from_ports(ports)?,
            s.blocks.clone(),
        )?)
    }
}

fn rename(e: FemError, name: &str) -> FemError {
    match e {
        FemError::InvalidParameter {
            value, requirement, ..
        } if requirement.contains("n_elements") => FemError::InvalidParameter {
            name: name.into(),
            value,
            requirement: requirement.replace("n_elements", name),
        },
        e => e,
    }
}

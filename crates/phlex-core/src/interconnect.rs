//! Power-preserving interconnection of pH systems (paper 000 §5.1, eqs. (42)–(46)).
//!
//! Systems are first joined by a direct sum ([`Composite::add`]); port and block names are
//! prefixed with the subsystem name (`"beam1.tip"`). Then ports are coupled pairwise:
//!
//! * **gyrator** $u_a = -C y_b$, $u_b = C^\top y_a$: adds $-B_a C B_b^\top$ and its negative
//!   transpose $B_b C^\top B_a^\top$ to $J$ (the (2,1) block is $B_2 C^\top B_1^\top$,
//!   erratum of paper 000 noted in the thesis summary);
//! * **transformer** $u_a = -C u_b$, $y_b = C^\top y_a$: the input $u_b = \lambda$ becomes a
//!   Lagrange multiplier (index 2), $J$ is bordered by $G = B_b - B_a C$, i.e.
//!   $\begin{bmatrix} J & G \\ -G^\top & 0\end{bmatrix}$ (eq. (46));
//! * **output feedback** $u = -K y$ with $K \succeq 0$: adds $B K B^\top$ to $R$.
//!
//! In each case $u_a^\top y_a + u_b^\top y_b = 0$ (eq. (43)); ports left open keep their names.
use crate::sparse::{self, SparseMat, Triplets};
use crate::variables::VarBlock;
use crate::{CoreError, LinearPhSystem, Port, PortSet};
use faer::Mat;

/// Direct sum of named subsystems, then pairwise couplings of their ports.
#[derive(Debug, Clone, Default)]
pub struct Composite {
    sys: Option<LinearPhSystem>,
}

impl Composite {
    /// An empty composite.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a subsystem; its ports and blocks are renamed `name.port`, `name.block`.
    pub fn add(mut self, name: &str, s: &LinearPhSystem) -> Result<Self, CoreError> {
        let renamed = LinearPhSystem {
            ports: s.ports.prefixed(name),
            blocks: s
                .blocks
                .iter()
                .map(|b| VarBlock {
                    name: format!("{name}.{}", b.name),
                    ..b.clone()
                })
                .collect(),
            ..s.clone()
        };
        self.sys = Some(match self.sys.take() {
            None => renamed,
            Some(acc) => direct_sum(&acc, &renamed)?,
        });
        Ok(self)
    }

    /// Gyrator coupling of ports `a` and `b` (see module doc).
    pub fn gyrator(mut self, a: &str, b: &str, C: &Mat<f64>) -> Result<Self, CoreError> {
        let s = self.take()?;
        self.sys = Some(gyrator(&s, a, b, C)?);
        Ok(self)
    }

    /// Transformer coupling of ports `a` and `b` with multiplier block `lambda`.
    pub fn transformer(
        mut self,
        a: &str,
        b: &str,
        C: &Mat<f64>,
        lambda: &str,
    ) -> Result<Self, CoreError> {
        let s = self.take()?;
        self.sys = Some(transformer(&s, a, b, C, lambda)?);
        Ok(self)
    }

    /// Output-feedback damping on one port.
    pub fn feedback(mut self, port: &str, K: &SparseMat) -> Result<Self, CoreError> {
        let s = self.take()?;
        self.sys = Some(feedback_damping(&s, port, K)?);
        Ok(self)
    }

    /// The interconnected system.
    pub fn build(self) -> Result<LinearPhSystem, CoreError> {
        self.sys
            .ok_or_else(|| CoreError::LinAlg("empty composite: add a subsystem first".into()))
    }

    fn take(&mut self) -> Result<LinearPhSystem, CoreError> {
        self.sys
            .take()
            .ok_or_else(|| CoreError::LinAlg("empty composite".into()))
    }
}

/// Direct sum: block-diagonal $E, J, R, B$; ports and blocks concatenated.
pub fn direct_sum(a: &LinearPhSystem, b: &LinearPhSystem) -> Result<LinearPhSystem, CoreError> {
    let mut ports = a.ports.clone();
    for p in b.ports.iter() {
        ports.push(p.clone())?;
    }
    let mut blocks = a.blocks.clone();
    blocks.extend(b.blocks.iter().cloned());
    LinearPhSystem::new(
        sparse::block_diag(&[&a.E, &b.E]),
        sparse::block_diag(&[&a.J, &b.J]),
        sparse::block_diag(&[&a.R, &b.R]),
        sparse::block_diag(&[&a.B, &b.B]),
        ports,
        blocks,
    )
}

fn port_cols(s: &LinearPhSystem, name: &str, ctx: &str) -> Result<SparseMat, CoreError> {
    let r = s.ports.range(name).map_err(|_| CoreError::UnknownPort {
        name: name.into(),
        context: ctx.into(),
        available: s.ports.names().join(", "),
    })?;
    Ok(sparse::slice(&s.B, 0..s.n_states(), r))
}

/// Removes the named ports from `B` and the port list.
fn drop_ports(s: &LinearPhSystem, names: &[&str]) -> (SparseMat, PortSet) {
    let mut keep_cols = Vec::new();
    let mut ports = PortSet::new();
    for (p, r) in s.ports.iter().zip(s.ports.ranges()) {
        if !names.contains(&p.name.as_str()) {
            keep_cols.extend(r);
            ports.push(p.clone()).expect("names were unique");
        }
    }
    (sparse::select_cols(&s.B, &keep_cols), ports)
}

fn check_c(a: &str, b: &str, da: usize, db: usize, C: &Mat<f64>) -> Result<(), CoreError> {
    if a == b {
        return Err(CoreError::BadInterconnection {
            a: a.into(),
            b: b.into(),
            reason: "a port cannot be coupled with itself".into(),
        });
    }
    if C.nrows() != da || C.ncols() != db {
        return Err(CoreError::BadInterconnection {
            a: a.into(),
            b: b.into(),
            reason: format!(
                "C must be {da} x {db} (dim of '{a}' x dim of '{b}'), got {} x {}",
                C.nrows(),
                C.ncols()
            ),
        });
    }
    Ok(())
}

/// Gyrator interconnection $u_a = -C y_b$, $u_b = C^\top y_a$ of two ports of one system.
pub fn gyrator(
    s: &LinearPhSystem,
    a: &str,
    b: &str,
    C: &Mat<f64>,
) -> Result<LinearPhSystem, CoreError> {
    let Ba = port_cols(s, a, "gyrator")?;
    let Bb = port_cols(s, b, "gyrator")?;
    check_c(a, b, Ba.ncols(), Bb.ncols(), C)?;
    let Cs = sparse::from_dense(C, 0.0);
    // K = B_a C B_bᵀ ; J ← J − K + Kᵀ
    let K = sparse::matmul(&sparse::matmul(&Ba, &Cs), &sparse::transpose(&Bb));
    let mut t = Triplets::new(s.n_states(), s.n_states());
    t.push_block(0, 0, &s.J, 1.0);
    t.push_block(0, 0, &K, -1.0);
    t.push_block_transpose(0, 0, &K, 1.0);
    let (B, ports) = drop_ports(s, &[a, b]);
    LinearPhSystem::new(
        s.E.clone(),
        t.build(),
        s.R.clone(),
        B,
        ports,
        s.blocks.clone(),
    )
}

/// Transformer interconnection $u_a = -C u_b$, $y_b = C^\top y_a$; $\lambda = u_b$ becomes an
/// index-2 multiplier block named `lambda` (paper 000 eq. (46)).
pub fn transformer(
    s: &LinearPhSystem,
    a: &str,
    b: &str,
    C: &Mat<f64>,
    lambda: &str,
) -> Result<LinearPhSystem, CoreError> {
    let Ba = port_cols(s, a, "transformer")?;
    let Bb = port_cols(s, b, "transformer")?;
    check_c(a, b, Ba.ncols(), Bb.ncols(), C)?;
    let n = s.n_states();
    let nl = Bb.ncols();
    let Cs = sparse::from_dense(C, 0.0);
    let G = sparse::add(1.0, &Bb, -1.0, &sparse::matmul(&Ba, &Cs));
    let mut e = Triplets::new(n + nl, n + nl);
    e.push_block(0, 0, &s.E, 1.0);
    let mut j = Triplets::new(n + nl, n + nl);
    j.push_block(0, 0, &s.J, 1.0);
    j.push_block(0, n, &G, 1.0);
    j.push_block_transpose(n, 0, &G, -1.0);
    let mut r = Triplets::new(n + nl, n + nl);
    r.push_block(0, 0, &s.R, 1.0);
    let (B0, ports) = drop_ports(s, &[a, b]);
    let mut bt = Triplets::new(n + nl, B0.ncols());
    bt.push_block(0, 0, &B0, 1.0);
    let mut blocks = s.blocks.clone();
    blocks.push(VarBlock::algebraic(
        lambda,
        format!("multiplier = input of '{b}' (transformer with '{a}')"),
        nl,
        2,
    ));
    LinearPhSystem::new(e.build(), j.build(), r.build(), bt.build(), ports, blocks)
}

/// Output feedback $u_p = -K y_p$: $R \mathrel{+}= B_p K B_p^\top$, port `p` removed.
pub fn feedback_damping(
    s: &LinearPhSystem,
    port: &str,
    K: &SparseMat,
) -> Result<LinearPhSystem, CoreError> {
    let Bp = port_cols(s, port, "output feedback")?;
    if K.nrows() != Bp.ncols() || K.ncols() != Bp.ncols() {
        return Err(CoreError::Dimension {
            what: format!("feedback gain K on port '{port}'"),
            expected: Bp.ncols(),
            found: K.nrows(),
        });
    }
    crate::structure::check_sym_psd(K, "K (feedback gain)", &[], &Default::default())?;
    let add = sparse::matmul(&sparse::matmul(&Bp, K), &sparse::transpose(&Bp));
    let R = sparse::add(1.0, &s.R, 1.0, &add);
    let (B, ports) = drop_ports(s, &[port]);
    LinearPhSystem::new(s.E.clone(), s.J.clone(), R, B, ports, s.blocks.clone())
}

/// Convenience: a port description for a coupling created elsewhere.
pub fn port(name: &str, dim: usize, input: &str, output: &str) -> Port {
    Port::new(name, dim, input, output)
}

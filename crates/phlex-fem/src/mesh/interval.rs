//! One-dimensional interval meshes $0 = x_0 < x_1 < \dots < x_n = L$ (thesis 004 §7.1:
//! "interval mesh $\mathcal I_h$ with elements $E$").
use crate::error::{require_count, require_positive, FemError};
use std::fmt;

/// An interval mesh given by strictly increasing nodes; element `e` is `[x_e, x_{e+1}]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh1d {
    nodes: Vec<f64>,
}

impl Mesh1d {
    /// Uniform mesh of `[0, length]` with `n_elements` elements.
    ///
    /// Errors: `length > 0` and `n_elements ≥ 1` are required
    /// ([`FemError::InvalidParameter`] naming `length` / `n_elements`).
    pub fn uniform(length: f64, n_elements: usize) -> Result<Self, FemError> {
        require_positive("length", length)?;
        Self::uniform_interval(0.0, length, n_elements)
    }

    /// Uniform mesh of `[a, b]` with `n_elements` elements (`a < b`, `n_elements ≥ 1`).
    pub fn uniform_interval(a: f64, b: f64, n_elements: usize) -> Result<Self, FemError> {
        require_count("n_elements", n_elements, 1)?;
        if !(a.is_finite() && b.is_finite() && b > a) {
            return Err(FemError::InvalidParameter {
                name: "interval end b".into(),
                value: b,
                requirement: format!("b > a = {a}, both finite"),
            });
        }
        let h = (b - a) / n_elements as f64;
        let mut nodes: Vec<f64> = (0..=n_elements).map(|i| a + h * i as f64).collect();
        nodes[n_elements] = b;
        Ok(Self { nodes })
    }

    /// Mesh from a list of nodes (at least two, finite, strictly increasing).
    pub fn from_nodes(nodes: Vec<f64>) -> Result<Self, FemError> {
        if nodes.len() < 2 {
            return Err(FemError::InvalidParameter {
                name: "nodes (count)".into(),
                value: nodes.len() as f64,
                requirement: "at least 2 nodes (n_elements >= 1)".into(),
            });
        }
        for (i, x) in nodes.iter().enumerate() {
            if !x.is_finite() {
                return Err(FemError::InvalidParameter {
                    name: format!("nodes[{i}]"),
                    value: *x,
                    requirement: "finite".into(),
                });
            }
            if i > 0 && *x <= nodes[i - 1] {
                return Err(FemError::InvalidParameter {
                    name: format!("nodes[{i}]"),
                    value: *x,
                    requirement: format!("nodes[{i}] > nodes[{}] = {}", i - 1, nodes[i - 1]),
                });
            }
        }
        Ok(Self { nodes })
    }

    /// Number of elements.
    pub fn n_elements(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Nodes `x_0 < … < x_n`.
    pub fn nodes(&self) -> &[f64] {
        &self.nodes
    }

    /// Left end `x_0`.
    pub fn a(&self) -> f64 {
        self.nodes[0]
    }

    /// Right end `x_n`.
    pub fn b(&self) -> f64 {
        *self.nodes.last().expect("a mesh has at least two nodes")
    }

    /// Length `x_n − x_0`.
    pub fn length(&self) -> f64 {
        self.b() - self.a()
    }

    /// End points `(x_e, x_{e+1})` of element `e`.
    ///
    /// # Panics
    /// If `e >= n_elements()`.
    #[track_caller]
    pub fn element(&self, e: usize) -> (f64, f64) {
        (self.nodes[e], self.nodes[e + 1])
    }

    /// Length `h_e` of element `e`.
    #[track_caller]
    pub fn h(&self, e: usize) -> f64 {
        self.nodes[e + 1] - self.nodes[e]
    }

    /// Largest element length.
    pub fn h_max(&self) -> f64 {
        (0..self.n_elements())
            .map(|e| self.h(e))
            .fold(0.0, f64::max)
    }

    /// True if `x` lies in `[a, b]` up to a relative tolerance of `1e-12 · length`.
    pub fn contains(&self, x: f64) -> bool {
        let tol = 1e-12 * self.length();
        x >= self.a() - tol && x <= self.b() + tol
    }

    /// Element containing `x` and the reference coordinate `ξ ∈ [0, 1]`.
    ///
    /// Elements are taken left-closed, `x ∈ [x_e, x_{e+1})`, except that `x = L` belongs to
    /// the last element; so at an interior node the element to the **right** is used (this
    /// matters only for discontinuous fields and derivatives).
    pub fn locate(&self, x: f64) -> Result<(usize, f64), FemError> {
        if !self.contains(x) {
            return Err(FemError::PointOutsideMesh {
                x,
                a: self.a(),
                b: self.b(),
            });
        }
        let n = self.n_elements();
        // partition_point: first node index with node > x.
        let k = self.nodes.partition_point(|&v| v <= x);
        let e = k.saturating_sub(1).min(n - 1);
        let (x0, x1) = self.element(e);
        let xi = ((x - x0) / (x1 - x0)).clamp(0.0, 1.0);
        Ok((e, xi))
    }
}

/// How a model's mesh is given: uniform on $\[0, L\]$ or an explicit mesh.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshSpec {
    /// Uniform mesh of `[0, length]` with `n_elements` elements.
    Uniform {
        /// Length $L$ \[m\].
        length: f64,
        /// Number of elements.
        n_elements: usize,
    },
    /// A given mesh (may be non-uniform, may start at $x_0 \ne 0$).
    Custom(Mesh1d),
}

impl MeshSpec {
    /// Builds (and validates) the mesh.
    pub fn build(&self) -> Result<Mesh1d, FemError> {
        match self {
            MeshSpec::Uniform { length, n_elements } => Mesh1d::uniform(*length, *n_elements),
            MeshSpec::Custom(m) => Ok(m.clone()),
        }
    }
}

/// One end of a 1D domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// $x = x_0$ (usually 0).
    Left,
    /// $x = x_n$ (usually $L$).
    Right,
}

impl End {
    /// `"left"` / `"right"` (also the port name of the end).
    pub fn name(&self) -> &'static str {
        match self {
            End::Left => "left",
            End::Right => "right",
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_mesh_and_locate() {
        let m = Mesh1d::uniform(2.0, 4).unwrap();
        assert_eq!(m.n_elements(), 4);
        assert_eq!(m.nodes(), &[0.0, 0.5, 1.0, 1.5, 2.0]);
        assert_eq!(m.locate(0.0).unwrap(), (0, 0.0));
        // interior node: the element on the right
        assert_eq!(m.locate(0.5).unwrap(), (1, 0.0));
        assert_eq!(m.locate(2.0).unwrap(), (3, 1.0));
        let (e, xi) = m.locate(1.25).unwrap();
        assert_eq!(e, 2);
        assert!((xi - 0.5).abs() < 1e-15);
        assert!(matches!(
            m.locate(2.1),
            Err(FemError::PointOutsideMesh { .. })
        ));
    }

    #[test]
    fn invalid_meshes_name_the_parameter() {
        let e = Mesh1d::uniform(1.0, 0).unwrap_err();
        assert!(e.to_string().contains("n_elements"), "{e}");
        let e = Mesh1d::uniform(-1.0, 3).unwrap_err();
        assert!(e.to_string().contains("length"), "{e}");
        let e = Mesh1d::from_nodes(vec![0.0, 0.5, 0.5, 1.0]).unwrap_err();
        assert!(e.to_string().contains("nodes[2]"), "{e}");
        let e = Mesh1d::from_nodes(vec![0.0]).unwrap_err();
        assert!(e.to_string().contains("nodes"), "{e}");
    }
}

//! Energy diagnostics along a trajectory: $H(t)$, power through each port, dissipated
//! energy, and the discrete power-balance residual
//! $r_n = H(t_{n+1}) - H(t_n) - h\,\bar y^\top \bar u + h\,\bar e^\top R \bar e$
//! (for the implicit midpoint rule $\bar{(\cdot)}$ are midpoint values, and $r_n$ vanishes
//! up to the linear/Newton solver tolerance).
use crate::PortSet;

/// Per-port power $y_p^\top u_p$ for every port of `ports`.
pub fn port_powers(ports: &PortSet, y: &[f64], u: &[f64]) -> Vec<f64> {
    ports
        .ranges()
        .into_iter()
        .map(|r| r.clone().map(|k| y[k] * u[k]).sum())
        .collect()
}

/// Running energy account of a simulation.
#[derive(Debug, Clone, Default)]
pub struct EnergyLedger {
    /// Port names, in order.
    pub port_names: Vec<String>,
    /// Sample times.
    pub times: Vec<f64>,
    /// $H$ at each sample time.
    pub hamiltonian: Vec<f64>,
    /// Cumulative energy supplied through each port, $\int y_p^\top u_p\,dt$ (per sample).
    pub supplied: Vec<Vec<f64>>,
    /// Cumulative dissipated energy $\int e^\top R e\,dt$ (per sample).
    pub dissipated: Vec<f64>,
    /// Power-balance residual of each step (length = samples − 1).
    pub residual: Vec<f64>,
}

impl EnergyLedger {
    /// Starts an account at `t0` with $H(t_0) = H_0$.
    pub fn new(ports: &PortSet, t0: f64, h0: f64) -> Self {
        Self {
            port_names: ports.names(),
            times: vec![t0],
            hamiltonian: vec![h0],
            supplied: vec![vec![0.0; ports.len()]],
            dissipated: vec![0.0],
            residual: Vec::new(),
        }
    }

    /// Records one step of length `h` ending at `t1` with $H(t_1) = H_1$, step-averaged port
    /// powers and dissipation rate.
    pub fn push_step(&mut self, t1: f64, h1: f64, h: f64, port_power: &[f64], dissipation: f64) {
        let h0 = *self.hamiltonian.last().expect("ledger has a start");
        let last = self.supplied.last().expect("ledger has a start").clone();
        let supplied: Vec<f64> = last
            .iter()
            .zip(port_power)
            .map(|(s, p)| s + h * p)
            .collect();
        let inflow: f64 = port_power.iter().sum::<f64>() * h;
        let diss = dissipation * h;
        self.residual.push(h1 - h0 - inflow + diss);
        self.times.push(t1);
        self.hamiltonian.push(h1);
        self.supplied.push(supplied);
        self.dissipated
            .push(self.dissipated.last().copied().unwrap_or(0.0) + diss);
    }

    /// Largest absolute step residual.
    pub fn max_residual(&self) -> f64 {
        self.residual.iter().fold(0.0, |m, r| m.max(r.abs()))
    }

    /// Largest step residual relative to the energy scale $\max(|H|, \text{supplied}, \text{dissipated})$.
    pub fn max_relative_residual(&self) -> f64 {
        self.max_residual() / self.energy_scale()
    }

    /// Energy scale of the run (for relative measures).
    pub fn energy_scale(&self) -> f64 {
        let mut s = self.hamiltonian.iter().fold(0.0f64, |m, h| m.max(h.abs()));
        for row in &self.supplied {
            for v in row {
                s = s.max(v.abs());
            }
        }
        s = s.max(self.dissipated.last().copied().unwrap_or(0.0).abs());
        s.max(f64::MIN_POSITIVE)
    }

    /// Energy drift $\max_n |H_n - H_0 - W_n + D_n| / \text{scale}$, where $W$ is the
    /// supplied work and $D$ the dissipated energy (0 for exact conservation).
    pub fn relative_drift(&self) -> f64 {
        let h0 = self.hamiltonian[0];
        let mut m = 0.0f64;
        for k in 0..self.times.len() {
            let w: f64 = self.supplied[k].iter().sum();
            m = m.max((self.hamiltonian[k] - h0 - w + self.dissipated[k]).abs());
        }
        m / self.energy_scale()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Port;

    #[test]
    fn ledger_residual_and_drift() {
        let ports = PortSet::from_ports(vec![Port::new("a", 1, "f", "v")]).unwrap();
        let mut l = EnergyLedger::new(&ports, 0.0, 1.0);
        // H grows by exactly h·P − h·D each step.
        l.push_step(0.1, 1.0 + 0.1 * 2.0 - 0.1 * 0.5, 0.1, &[2.0], 0.5);
        l.push_step(0.2, 1.0 + 0.2 * 2.0 - 0.2 * 0.5 + 1e-9, 0.1, &[2.0], 0.5);
        assert!(l.residual[0].abs() < 1e-15);
        assert!((l.residual[1] - 1e-9).abs() < 1e-15);
        assert!((l.supplied[2][0] - 0.4).abs() < 1e-15);
        assert!((l.dissipated[2] - 0.1).abs() < 1e-15);
        assert!((l.relative_drift() - 1e-9 / 1.3).abs() < 1e-14);
    }
}

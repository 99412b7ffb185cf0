//! Fixed-step time grids that stop exactly on input breakpoints.
//!
//! The nominal grid is $t_k = t_0 + k h$, $k = 0, \dots, N$ with
//! $N = \lceil (t_\mathrm{end} - t_0)/h \rceil$ and $t_N = t_\mathrm{end}$ (the last step is
//! shortened if $t_\mathrm{end}$ is not on the grid). A breakpoint $b$ of the input (a
//! switching time, see [`crate::signal::Signal::breakpoints`]) lying strictly inside
//! $(t_k, t_{k+1})$ splits that step into $(t_k, b)$ and $(b, t_{k+1})$, so no step straddles a
//! discontinuity of $u$ and the grid resumes at $t_{k+1}$. Breakpoints within
//! $10^{-9} h$ of a grid point are treated as that grid point. Observers are called at
//! $t_0$, at every grid point $t_k$ with $k$ a multiple of `output_every`, and at
//! $t_\mathrm{end}$.
use crate::SolveError;

/// Time span, step and output stride of a fixed-step integration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedStepParams {
    /// Initial time $t_0$ \[s\].
    pub t0: f64,
    /// Final time $t_\mathrm{end} > t_0$ \[s\].
    pub t_end: f64,
    /// Nominal step $h > 0$ \[s\].
    pub h: f64,
    /// Observer (and energy-ledger) stride in grid steps, `>= 1`.
    pub output_every: usize,
}

impl Default for FixedStepParams {
    /// $t \in [0, 1]$ s, $h = 10^{-3}$ s, output at every step.
    fn default() -> Self {
        Self {
            t0: 0.0,
            t_end: 1.0,
            h: 1e-3,
            output_every: 1,
        }
    }
}

impl FixedStepParams {
    /// Checks every parameter; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        if !self.t0.is_finite() || !self.t_end.is_finite() {
            return Err(SolveError::Parameter(format!(
                "t0 and t_end must be finite, got t0 = {}, t_end = {}",
                self.t0, self.t_end
            )));
        }
        if !(self.t_end > self.t0) {
            return Err(SolveError::Parameter(format!(
                "time span must satisfy t_end > t0, got t0 = {}, t_end = {}",
                self.t0, self.t_end
            )));
        }
        if !(self.h > 0.0 && self.h.is_finite()) {
            return Err(SolveError::Parameter(format!(
                "step must satisfy 0 < h < inf, got h = {}",
                self.h
            )));
        }
        let n = (self.t_end - self.t0) / self.h;
        if n > 1e12 {
            return Err(SolveError::Parameter(format!(
                "step must satisfy (t_end - t0) / h <= 1e12, got {n:.3e} steps"
            )));
        }
        if self.output_every < 1 {
            return Err(SolveError::Parameter(
                "output_every must satisfy output_every >= 1, got 0".into(),
            ));
        }
        Ok(())
    }

    /// Number of grid steps $N$.
    pub fn n_steps(&self) -> usize {
        (((self.t_end - self.t0) / self.h) - 1e-9).ceil().max(1.0) as usize
    }

    /// The output times of a run on this grid: $t_0$, the grid points $t_k = t_0 + kh$ with
    /// $k$ a multiple of `output_every`, and $t_{end}$ (where the observers of the
    /// fixed-step integrators are called; adaptive integrators report at the same times).
    pub fn output_times(&self) -> Vec<f64> {
        let n = self.n_steps();
        let mut times: Vec<f64> = (0..n)
            .filter(|k| k % self.output_every == 0)
            .map(|k| self.t0 + k as f64 * self.h)
            .collect();
        times.push(self.t_end);
        times
    }
}

/// One step of a [`StepGrid`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    /// Start time.
    pub ta: f64,
    /// End time.
    pub tb: f64,
    /// Step length (exactly the nominal `h` for regular steps).
    pub h: f64,
    /// True for a full nominal step between two grid points.
    pub regular: bool,
    /// Grid index `k` if the step ends on grid point `t_k`.
    pub grid_index: Option<usize>,
}

/// Iterator over the steps of a breakpoint-aware fixed grid.
#[derive(Debug, Clone)]
pub(crate) struct StepGrid {
    t0: f64,
    t_end: f64,
    h: f64,
    n: usize,
    output_every: usize,
    bps: Vec<f64>,
    bi: usize,
    k: usize,
    t: f64,
}

impl StepGrid {
    /// The grid of `p` (validated by the caller) split at `breakpoints`.
    pub fn new(p: &FixedStepParams, breakpoints: &[f64]) -> Self {
        let mut bps: Vec<f64> = breakpoints
            .iter()
            .copied()
            .filter(|b| b.is_finite() && *b > p.t0 && *b < p.t_end)
            .collect();
        bps.sort_by(|a, b| a.total_cmp(b));
        bps.dedup();
        Self {
            t0: p.t0,
            t_end: p.t_end,
            h: p.h,
            n: p.n_steps(),
            output_every: p.output_every,
            bps,
            bi: 0,
            k: 0,
            t: p.t0,
        }
    }

    fn grid_time(&self, k: usize) -> f64 {
        if k >= self.n {
            self.t_end
        } else {
            self.t0 + k as f64 * self.h
        }
    }

    /// True if the observer should be called at grid point `k`.
    pub fn is_output(&self, k: usize) -> bool {
        k.is_multiple_of(self.output_every) || k == self.n
    }
}

impl Iterator for StepGrid {
    type Item = Step;
    fn next(&mut self) -> Option<Step> {
        if self.k >= self.n {
            return None;
        }
        let snap = 1e-9 * self.h;
        let target = self.grid_time(self.k + 1);
        while self.bi < self.bps.len() && self.bps[self.bi] <= self.t + snap {
            self.bi += 1;
        }
        let ta = self.t;
        let on_grid_start = (ta - self.grid_time(self.k)).abs() <= snap;
        let (tb, grid_index) = if self.bi < self.bps.len() && self.bps[self.bi] < target - snap {
            let b = self.bps[self.bi];
            self.bi += 1;
            (b, None)
        } else {
            self.k += 1;
            (target, Some(self.k))
        };
        let regular = on_grid_start && grid_index.is_some() && (tb - ta - self.h).abs() <= snap;
        let h = if regular { self.h } else { tb - ta };
        self.t = tb;
        Some(Step {
            ta,
            tb,
            h,
            regular,
            grid_index,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_splits_at_breakpoints_and_ends_exactly() {
        let p = FixedStepParams {
            t0: 0.0,
            t_end: 0.35,
            h: 0.1,
            output_every: 2,
        };
        let g = StepGrid::new(&p, &[0.05, 0.2, -1.0, 0.3 + 1e-12, 0.35]);
        let steps: Vec<Step> = g.clone().collect();
        let ends: Vec<f64> = steps.iter().map(|s| s.tb).collect();
        // 0.05 splits step 1, 0.2 and 0.3+1e-12 coincide with grid points, 0.35 = t_end.
        let expect = [0.05, 0.1, 0.2, 0.30000000000000004, 0.35];
        assert_eq!(ends.len(), expect.len());
        for (a, b) in ends.iter().zip(expect) {
            assert!((a - b).abs() < 1e-15, "{ends:?}");
        }
        let regular: Vec<bool> = steps.iter().map(|s| s.regular).collect();
        assert_eq!(regular, vec![false, false, true, true, false]);
        assert_eq!(steps[4].grid_index, Some(4));
        assert!((steps[4].h - 0.05).abs() < 1e-15);
        let outs: Vec<usize> = steps
            .iter()
            .filter_map(|s| s.grid_index)
            .filter(|&k| g.is_output(k))
            .collect();
        assert_eq!(outs, vec![2, 4]);
        assert!(FixedStepParams { h: 0.0, ..p }
            .validate()
            .unwrap_err()
            .to_string()
            .contains("0 < h"));
        assert!(FixedStepParams { t_end: -1.0, ..p }
            .validate()
            .unwrap_err()
            .to_string()
            .contains("t_end > t0"));
    }
}

//! Parameters of the midpoint integrators.
use crate::fixed_step::FixedStepParams;
use crate::newton::NewtonParams;
use crate::SolveError;

/// Which effort the midpoint scheme uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MidpointVariant {
    /// Implicit midpoint rule, $\bar z = z(x_m)$: the power balance is exact for a
    /// quadratic $H$, $O(h^2)$ per unit time otherwise.
    #[default]
    Midpoint,
    /// Discrete gradient ([`phlex_core::PhSystem::discrete_gradient`], Gonzalez's by
    /// default): exact discrete power balance for any Hamiltonian.
    DiscreteGradient,
}

impl MidpointVariant {
    /// The integrator name of the variant (`"midpoint"`, `"discrete_gradient"`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Midpoint => "midpoint",
            Self::DiscreteGradient => "discrete_gradient",
        }
    }
}

/// Parameters of the midpoint integrators.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MidpointParams {
    /// Time span, step and output stride.
    pub step: FixedStepParams,
    /// Newton parameters (not used by the linear fast path).
    pub newton: NewtonParams,
    /// Effort evaluation (for linear systems both variants coincide).
    pub variant: MidpointVariant,
}

impl MidpointParams {
    /// Checks every parameter; the message states the inequality that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        self.step.validate()?;
        self.newton.validate()
    }
}

//! Control of linear port-Hamiltonian models of `phlex-core` (issue 6 §4):
//! the bridge to state space with named ports and probes, energy
//! coordinates, and the sampled-data LQG closed loop with its exact energy
//! account.
//!
//! | module | what |
//! |---|---|
//! | [`bridge`] | linear pH system (descriptor systems reduced to the null space) → state space with named port inputs/outputs and probes, energy coordinates |
//! | [`lqg`] | sampled-data LQG on a bridged model: design, separation check, exact ZOH closed-loop simulation with energy and control power |

pub mod bridge;
pub mod lqg;

//! # phlex: model files, the command line and result files
//!
//! The top layer of the workspace. A command reads a TOML model file once
//! ([`source::ModelSource`]), finds its kind in the [`registry`] (one folder per kind under
//! [`kinds`]: beam, plate, elasticity, multibody, EPHS, …), and the kind parses it into its
//! typed tables, builds the pH system with `phlex-fem` / `phlex-mbs` / `phlex-ephs`,
//! integrates or analyses it with `phlex-solve`, and writes the results atomically
//! ([`output`]). The continuum kinds share [`continuum`]; the model-file tables every kind
//! uses are in [`spec`], the one `[simulation]` driver in [`integration`], errors in
//! [`error`], the one vocabulary of keys (and the renamed ones) in [`vocabulary`], the
//! checks of the shared material keys in [`material`]. The binary `phlex` is a thin wrapper over
//! [`app`] and [`export`].
#![allow(non_snake_case)]
#![warn(missing_docs)]

pub mod app;
pub mod check;
pub mod continuum;
pub mod error;
pub mod export;
pub mod identify;
pub mod integration;
pub mod keys;
pub mod kinds;
pub mod material;
pub mod matrix_market;
pub mod output;
pub mod registry;
pub mod source;
pub mod spec;
pub mod studies;
pub mod vocabulary;

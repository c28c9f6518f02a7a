//! Test support for chant and its lexicons: the observation conformance suite every
//! lexicon runs, a fake exec seam, a fake HTTP server, and the scripted lexicon.

pub mod behaviour;
pub mod conformance;
pub mod exec;
pub mod http;
pub mod kube_api;
pub mod pki;
pub mod postgres;
mod serve;

pub use behaviour::{BehaviourScenario, Expect, assert_behaviour_conformance};
pub use chant_scripted::{LiveWorld, ScriptedFactory, ScriptedLexicon};
pub use conformance::{Scenario, assert_observation_conformance};
pub use exec::FakeExec;
pub use http::{FakeHttp, Recorded, Reply};
pub mod moto;

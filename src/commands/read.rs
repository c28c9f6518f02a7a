//! Reading the live side of every lexicon concurrently, settling each answer onto the
//! tri-state: a failure is a reason for every declared entity, never an empty estate.

use crate::engine::{Declared, Engine};
use crate::lifecycle::deep::diff::diff_deep_with;
use crate::lifecycle::deep::stream::StreamingDiff;
use crate::lifecycle::mask::mask_observation;
use crate::output::Output;
use chant_lexicon::observation::settle_describe;
use chant_lexicon::{
    DeepObservation, HookError, Observation, ObserveRequest, ReadPath, UnobservedReason,
};

/// One lexicon's thin answer.
pub enum Thin {
    Observed(Observation),
    /// The lexicon has no describe_resources.
    Unsupported,
    /// The lexicon refused to read (a wrong account, a disallowed credential plugin).
    Refused(String),
}

pub struct Reading {
    pub declared: Declared,
    pub thin: Thin,
    /// The whole-lexicon failure, when there was one (already folded into `thin`).
    pub failure: Option<String>,
}

impl Reading {
    pub fn observation(&self) -> Option<&Observation> {
        match &self.thin {
            Thin::Observed(o) => Some(o),
            _ => None,
        }
    }
}

/// The reads of a command that reads every declared entity both thin and deep.
pub const THIN_AND_DEEP: &[ReadPath] =
    &[ReadPath::DescribeResources, ReadPath::ObserveResourcesDeep];

#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions<'a> {
    pub owned: bool,
    pub namespace: Option<&'a str>,
}

impl ReadOptions<'_> {
    /// The request of a read of `declared` with these options.
    fn request(&self, engine: &Engine, environment: &str, declared: &Declared) -> ObserveRequest {
        let mut request = engine.observe_request(environment, declared);
        request.owned = self.owned;
        request.namespace = self.namespace.map(str::to_owned);
        request
    }
}

/// `describe_resources` across every lexicon at once.
pub async fn read_thin(
    engine: &Engine,
    environment: &str,
    declared: &[Declared],
    options: ReadOptions<'_>,
    output: &Output,
) -> Vec<Reading> {
    let total: usize = declared.iter().map(|d| d.entities.len()).sum();
    let spinner = output.spinner(format!(
        "reading {} lexicon(s), {total} declared entities",
        declared.len()
    ));
    let reads = declared.iter().map(|d| async move {
        let request = options.request(engine, environment, d);
        let result = engine.bounded(d.lexicon.describe_resources(&request)).await;
        let failure = match &result {
            Err(HookError::Failed(message)) => Some(message.clone()),
            _ => None,
        };
        let thin = match settle_describe(result, &d.entities) {
            // Secrets are masked before anything is compared, rendered or stored.
            Ok(observation) => Thin::Observed(mask_observation(observation)),
            Err(HookError::Unsupported { .. }) => Thin::Unsupported,
            Err(HookError::Refused(message)) => Thin::Refused(message),
            Err(HookError::Failed(message)) => Thin::Refused(message),
        };
        Reading {
            declared: d.clone(),
            thin,
            failure,
        }
    });
    let readings = futures::future::join_all(reads).await;
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    readings
}

/// One lexicon's deep answer.
pub enum Deep {
    Observed(DeepObservation),
    Unsupported,
}

/// `observe_resources_deep` for one lexicon; a failure marks every declared entity read-failed.
pub async fn read_deep(
    engine: &Engine,
    environment: &str,
    declared: &Declared,
    options: ReadOptions<'_>,
) -> Deep {
    read_deep_into(engine, environment, declared, options, None).await
}

/// [`read_deep`], the lexicon free to hand trees to `sink` as it reads them (those are
/// then not in the answer). The request, and so the sink, is gone when this returns.
async fn read_deep_into(
    engine: &Engine,
    environment: &str,
    declared: &Declared,
    options: ReadOptions<'_>,
    sink: Option<chant_lexicon::DeepSink>,
) -> Deep {
    let mut request = options.request(engine, environment, declared);
    request.deep_sink = sink;
    match engine
        .bounded(declared.lexicon.observe_resources_deep(&request))
        .await
    {
        Ok(deep) => Deep::Observed(deep),
        Err(HookError::Unsupported { .. }) => Deep::Unsupported,
        Err(HookError::Failed(message) | HookError::Refused(message)) => {
            let all = Observation::all_unobserved(
                declared
                    .entities
                    .iter()
                    .map(|e| (e.name.as_str(), Some(e.entity_type.as_str()))),
                UnobservedReason::ReadFailed,
                Some(&message),
            );
            Deep::Observed(DeepObservation {
                resources: Default::default(),
                unobserved: all.unobserved,
            })
        }
    }
}

/// Print each lexicon's failures and notes once, after the answer.
pub fn report_reading_problems(readings: &[Reading], output: &Output) {
    for reading in readings {
        let name = reading.declared.name();
        if let Some(message) = &reading.failure {
            // An unreadable lexicon is an incomplete answer, not a failed command.
            output.warning(&format!(
                "{name}: describe_resources failed — {message} (reporting {} declared entity(ies) as not observed, not as absent)",
                reading.declared.entities.len()
            ));
        }
        if let Thin::Refused(message) = &reading.thin {
            output.error(&format!("{name}: refused — {message}"), None);
        }
        if let Some(observation) = reading.observation() {
            for note in &observation.notes {
                output.note(&format!("{name}: {note}"));
            }
        }
    }
}

/// The claimed-field classification of every lexicon's deep read against its
/// declarations, read concurrently, with the accepted baseline applied. Lexicons without a
/// deep reader are absent from the map.
pub async fn deep_diffs(
    engine: &Engine,
    environment: &str,
    declared: &[Declared],
    options: ReadOptions<'_>,
    baseline: Option<&crate::lifecycle::baseline::ObservationBaseline>,
) -> std::collections::BTreeMap<String, crate::lifecycle::deep::diff::DeepDiff> {
    let reads = declared.iter().map(|d| async move {
        // Trees the lexicon hands over are classified while its other reads go on.
        let hooks = std::sync::Arc::new(d.lexicon.normalization_hooks());
        let baseline = baseline
            .and_then(|b| b.lexicons.get(d.name()))
            .cloned()
            .map(std::sync::Arc::new);
        let streaming = StreamingDiff::start(d.entities.clone(), hooks.clone(), baseline.clone());
        let read = read_deep_into(engine, environment, d, options, Some(streaming.sink())).await;
        let entities = d.entities.clone();
        let diff = chant_lexicon::parallel::off_task(move || {
            let streamed = streaming.finish();
            match read {
                Deep::Unsupported => None,
                Deep::Observed(deep) => Some(diff_deep_with(
                    &entities,
                    &deep,
                    &hooks,
                    baseline.as_deref(),
                    streamed,
                )),
            }
        })
        .await;
        diff.map(|diff| (d.name().to_owned(), diff))
    });
    futures::future::join_all(reads)
        .await
        .into_iter()
        .flatten()
        .collect()
}

/// `list_artifacts` for one lexicon, masked; `None` when the lexicon has no such hook. A
/// failure is a warning: artifacts are evidence, never the declared axis.
pub async fn read_artifacts(
    engine: &Engine,
    environment: &str,
    declared: &Declared,
    output: &Output,
) -> Option<std::collections::BTreeMap<String, chant_lexicon::ArtifactMetadata>> {
    let request = chant_lexicon::lexicon::ArtifactRequest {
        environment: environment.to_owned(),
        entities: declared.entities.clone(),
        stack: None,
    };
    match engine
        .bounded(declared.lexicon.list_artifacts(&request))
        .await
    {
        Ok(artifacts) => Some(
            artifacts
                .iter()
                .map(|(k, v)| (k.clone(), crate::lifecycle::mask::mask_metadata(v)))
                .collect(),
        ),
        Err(HookError::Unsupported { .. }) => None,
        Err(error) => {
            output.warning(&format!(
                "{}: list_artifacts failed — {error}",
                declared.name()
            ));
            None
        }
    }
}

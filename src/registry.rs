//! Every lexicon the binary knows, in one place. Each is a cargo feature, all on by default.

use chant_lexicon::LexiconFactory;

// One cfg-gated push per lexicon reads better than a vec! of cfg-gated elements.
#[allow(clippy::vec_init_then_push)]
pub fn factories() -> Vec<Box<dyn LexiconFactory>> {
    let mut all: Vec<Box<dyn LexiconFactory>> = Vec::new();
    #[cfg(feature = "scripted")]
    all.push(Box::new(chant_scripted::ScriptedFactory));
    #[cfg(feature = "k8s")]
    all.push(Box::new(chant_k8s::K8sFactory));
    #[cfg(feature = "terraform")]
    all.push(Box::new(chant_terraform::TerraformFactory));
    #[cfg(feature = "aws")]
    all.push(Box::new(chant_aws::AwsFactory));
    #[cfg(feature = "sql")]
    all.push(Box::new(chant_sql::SqlFactory));
    all
}

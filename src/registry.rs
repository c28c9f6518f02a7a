//! Every lexicon the binary knows, in one place. Each is a cargo feature, all on by default.

use chant_lexicon::LexiconFactory;

pub fn factories() -> Vec<Box<dyn LexiconFactory>> {
    vec![
        #[cfg(feature = "scripted")]
        Box::new(chant_scripted::ScriptedFactory),
        #[cfg(feature = "k8s")]
        Box::new(chant_k8s::K8sFactory),
        #[cfg(feature = "terraform")]
        Box::new(chant_terraform::TerraformFactory),
        #[cfg(feature = "aws")]
        Box::new(chant_aws::AwsFactory),
        #[cfg(feature = "sql")]
        Box::new(chant_sql::SqlFactory),
    ]
}

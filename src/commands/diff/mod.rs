//! `chant lifecycle diff <env> [lexicon]`, three ways: `--live` (declared vs live vs the last
//! snapshot), `--between A B` (two recorded snapshots), and the default (declarations vs
//! the digest recorded with the last snapshot).

mod between;
mod digest;
mod live;

use super::{Context, ExitStatus};
use crate::cli::DiffArgs;
use crate::error::CliError;

pub async fn run(ctx: &Context, args: &DiffArgs) -> Result<ExitStatus, CliError> {
    match &args.between {
        Some(refs) => between::run(ctx, args, &refs[0], &refs[1]).await,
        None if args.live => live::run(ctx, args).await,
        None => digest::run(ctx, args).await,
    }
}

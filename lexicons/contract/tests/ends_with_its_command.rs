//! A process that ends with its command (the CLI) frees nothing it releases. Its own test
//! binary: the setting is for the whole process.

use chant_lexicon::parallel::{ends_with_its_command, release};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

struct Tracked(Sender<()>);

impl Drop for Tracked {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

#[test]
fn what_is_released_is_left_to_the_operating_system() {
    ends_with_its_command();
    let (freed, on) = channel();
    release(Tracked(freed));
    assert!(
        on.recv_timeout(Duration::from_millis(200)).is_err(),
        "nothing frees it: the process's end takes it back"
    );
}

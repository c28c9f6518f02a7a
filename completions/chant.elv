
use builtin;
use str;

set edit:completion:arg-completer[chant] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'chant'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'chant'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand lifecycle 'Observe, compare and plan the live estate of an environment'
            cand lc 'Observe, compare and plan the live estate of an environment'
            cand import 'Write source from what is live in an environment'
            cand completions 'Print shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;lifecycle'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand snapshot 'Record what is live to the chant/lifecycle branch'
            cand show 'Print recorded snapshots'
            cand diff 'Compare declared, live and recorded (or two recorded snapshots)'
            cand plan 'Propose create / update / delete / adopt for every entity the read touched'
            cand log 'List the commits of the chant/lifecycle branch'
            cand whoami 'Who chant would act as, and where, for each lexicon'
            cand teardown 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
            cand predict 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;lc'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand snapshot 'Record what is live to the chant/lifecycle branch'
            cand show 'Print recorded snapshots'
            cand diff 'Compare declared, live and recorded (or two recorded snapshots)'
            cand plan 'Propose create / update / delete / adopt for every entity the read touched'
            cand log 'List the commits of the chant/lifecycle branch'
            cand whoami 'Who chant would act as, and where, for each lexicon'
            cand teardown 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
            cand predict 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;lifecycle;snapshot'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --deep 'Also record each object''s full property tree'
            cand --ambient 'Also record ambient objects (undeclared, unreferenced) of the declared kinds'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;snapshot'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --deep 'Also record each object''s full property tree'
            cand --ambient 'Also record ambient objects (undeclared, unreferenced) of the declared kinds'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;show'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;show'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;diff'= {
            cand --between 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)'
            cand --namespace 'Default namespace for entities that declare none'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --live 'Read the live estate (default: compare declarations with the last snapshot''s digest)'
            cand --update-baseline 'Accept the reported property deviations into the environment''s baseline'
            cand --json 'json'
            cand --detailed-exitcode 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;diff'= {
            cand --between 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)'
            cand --namespace 'Default namespace for entities that declare none'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --live 'Read the live estate (default: compare declarations with the last snapshot''s digest)'
            cand --update-baseline 'Accept the reported property deviations into the environment''s baseline'
            cand --json 'json'
            cand --detailed-exitcode 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;plan'= {
            cand --namespace 'Default namespace for entities that declare none'
            cand --report 'Print a machine report instead of the plan'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --owned 'Only objects carrying this project''s marker (the rest are reported as filtered)'
            cand --json 'json'
            cand --detailed-exitcode 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;plan'= {
            cand --namespace 'Default namespace for entities that declare none'
            cand --report 'Print a machine report instead of the plan'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --owned 'Only objects carrying this project''s marker (the rest are reported as filtered)'
            cand --json 'json'
            cand --detailed-exitcode 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;log'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;log'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;whoami'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;whoami'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;teardown'= {
            cand --confirm 'The environment''s name, typed again'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand --execute 'Delete the verified candidates (requires --confirm <env>)'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;teardown'= {
            cand --confirm 'The environment''s name, typed again'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --json 'json'
            cand --execute 'Delete the verified candidates (requires --confirm <env>)'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;predict'= {
            cand --traffic 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)'
            cand --failure 'A failure to ask each entity''s resilience verdict under (`one zone lost`)'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --live 'Also predict the live estate, and show the per-entity delta with its marks'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lc;predict'= {
            cand --traffic 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)'
            cand --failure 'A failure to ask each entity''s resilience verdict under (`one zone lost`)'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --live 'Also predict the live estate, and show the per-entity delta with its marks'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;lifecycle;help'= {
            cand snapshot 'Record what is live to the chant/lifecycle branch'
            cand show 'Print recorded snapshots'
            cand diff 'Compare declared, live and recorded (or two recorded snapshots)'
            cand plan 'Propose create / update / delete / adopt for every entity the read touched'
            cand log 'List the commits of the chant/lifecycle branch'
            cand whoami 'Who chant would act as, and where, for each lexicon'
            cand teardown 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
            cand predict 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;lifecycle;help;snapshot'= {
        }
        &'chant;lifecycle;help;show'= {
        }
        &'chant;lifecycle;help;diff'= {
        }
        &'chant;lifecycle;help;plan'= {
        }
        &'chant;lifecycle;help;log'= {
        }
        &'chant;lifecycle;help;whoami'= {
        }
        &'chant;lifecycle;help;teardown'= {
        }
        &'chant;lifecycle;help;predict'= {
        }
        &'chant;lifecycle;help;help'= {
        }
        &'chant;lc;help'= {
            cand snapshot 'Record what is live to the chant/lifecycle branch'
            cand show 'Print recorded snapshots'
            cand diff 'Compare declared, live and recorded (or two recorded snapshots)'
            cand plan 'Propose create / update / delete / adopt for every entity the read touched'
            cand log 'List the commits of the chant/lifecycle branch'
            cand whoami 'Who chant would act as, and where, for each lexicon'
            cand teardown 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
            cand predict 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;lc;help;snapshot'= {
        }
        &'chant;lc;help;show'= {
        }
        &'chant;lc;help;diff'= {
        }
        &'chant;lc;help;plan'= {
        }
        &'chant;lc;help;log'= {
        }
        &'chant;lc;help;whoami'= {
        }
        &'chant;lc;help;teardown'= {
        }
        &'chant;lc;help;predict'= {
        }
        &'chant;lc;help;help'= {
        }
        &'chant;import'= {
            cand --from 'The environment to export from'
            cand -d 'Only this lexicon'
            cand --lexicon 'Only this lexicon'
            cand --type 'Only resources of this type'
            cand --name 'Only the resource with this name'
            cand -o 'Where to write (default: imported/<lexicon>/ under the project)'
            cand --output 'Where to write (default: imported/<lexicon>/ under the project)'
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand --owned 'Only resources carrying this project''s marker'
            cand --verbatim 'Keep server-defaulted fields'
            cand --force 'Overwrite existing files'
            cand --json 'json'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;completions'= {
            cand -C 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --project 'Run as if chant was started in DIR (chant.toml is found there or in a parent)'
            cand --color 'When to colour output (NO_COLOR is honoured)'
            cand --concurrency 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)'
            cand --timeout 'Seconds each network request may take; a whole lexicon gets ten times that'
            cand -v 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand --verbose 'More logging on stderr (-v info, -vv debug, -vvv trace)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'chant;help'= {
            cand lifecycle 'Observe, compare and plan the live estate of an environment'
            cand import 'Write source from what is live in an environment'
            cand completions 'Print shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'chant;help;lifecycle'= {
            cand snapshot 'Record what is live to the chant/lifecycle branch'
            cand show 'Print recorded snapshots'
            cand diff 'Compare declared, live and recorded (or two recorded snapshots)'
            cand plan 'Propose create / update / delete / adopt for every entity the read touched'
            cand log 'List the commits of the chant/lifecycle branch'
            cand whoami 'Who chant would act as, and where, for each lexicon'
            cand teardown 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
            cand predict 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
        }
        &'chant;help;lifecycle;snapshot'= {
        }
        &'chant;help;lifecycle;show'= {
        }
        &'chant;help;lifecycle;diff'= {
        }
        &'chant;help;lifecycle;plan'= {
        }
        &'chant;help;lifecycle;log'= {
        }
        &'chant;help;lifecycle;whoami'= {
        }
        &'chant;help;lifecycle;teardown'= {
        }
        &'chant;help;lifecycle;predict'= {
        }
        &'chant;help;import'= {
        }
        &'chant;help;completions'= {
        }
        &'chant;help;help'= {
        }
    ]
    $completions[$command]
}

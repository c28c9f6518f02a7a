# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_chant_global_optspecs
    string join \n C/project= v/verbose color= concurrency= timeout= h/help V/version
end

function __fish_chant_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_chant_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_chant_using_subcommand
    set -l cmd (__fish_chant_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c chant -n "__fish_chant_needs_command" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_needs_command" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_needs_command" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_needs_command" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_needs_command" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_needs_command" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_needs_command" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_needs_command" -f -a "lifecycle" -d 'Observe, compare and plan the live estate of an environment'
complete -c chant -n "__fish_chant_needs_command" -f -a "lc" -d 'Observe, compare and plan the live estate of an environment'
complete -c chant -n "__fish_chant_needs_command" -f -a "import" -d 'Write source from what is live in an environment'
complete -c chant -n "__fish_chant_needs_command" -f -a "completions" -d 'Print shell completions'
complete -c chant -n "__fish_chant_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "snapshot" -d 'Record what is live to the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "show" -d 'Print recorded snapshots'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "diff" -d 'Compare declared, live and recorded (or two recorded snapshots)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "plan" -d 'Propose create / update / delete / adopt for every entity the read touched'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "log" -d 'List the commits of the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "whoami" -d 'Who chant would act as, and where, for each lexicon'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "teardown" -d 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "predict" -d 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -l deep -d 'Also record each object\'s full property tree'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -l ambient -d 'Also record ambient objects (undeclared, unreferenced) of the declared kinds'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from snapshot" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l between -d 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l namespace -d 'Default namespace for entities that declare none' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l live -d 'Read the live estate (default: compare declarations with the last snapshot\'s digest)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l update-baseline -d 'Accept the reported property deviations into the environment\'s baseline'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -l detailed-exitcode -d 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l namespace -d 'Default namespace for entities that declare none' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l report -d 'Print a machine report instead of the plan' -r -f -a "gitlab-mr\t'`{"create":N,"update":N,"delete":N}` for artifacts:reports:terraform'"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l owned -d 'Only objects carrying this project\'s marker (the rest are reported as filtered)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -l detailed-exitcode -d 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from log" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from whoami" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l confirm -d 'The environment\'s name, typed again' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -l execute -d 'Delete the verified candidates (requires --confirm <env>)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from teardown" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l traffic -d 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l failure -d 'A failure to ask each entity\'s resilience verdict under (`one zone lost`)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l live -d 'Also predict the live estate, and show the per-entity delta with its marks'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -l json
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from predict" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "snapshot" -d 'Record what is live to the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print recorded snapshots'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Compare declared, live and recorded (or two recorded snapshots)'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Propose create / update / delete / adopt for every entity the read touched'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "log" -d 'List the commits of the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "whoami" -d 'Who chant would act as, and where, for each lexicon'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "teardown" -d 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "predict" -d 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
complete -c chant -n "__fish_chant_using_subcommand lifecycle; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "snapshot" -d 'Record what is live to the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "show" -d 'Print recorded snapshots'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "diff" -d 'Compare declared, live and recorded (or two recorded snapshots)'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "plan" -d 'Propose create / update / delete / adopt for every entity the read touched'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "log" -d 'List the commits of the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "whoami" -d 'Who chant would act as, and where, for each lexicon'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "teardown" -d 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "predict" -d 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
complete -c chant -n "__fish_chant_using_subcommand lc; and not __fish_seen_subcommand_from snapshot show diff plan log whoami teardown predict help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -l deep -d 'Also record each object\'s full property tree'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -l ambient -d 'Also record ambient objects (undeclared, unreferenced) of the declared kinds'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from snapshot" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l between -d 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l namespace -d 'Default namespace for entities that declare none' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l live -d 'Read the live estate (default: compare declarations with the last snapshot\'s digest)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l update-baseline -d 'Accept the reported property deviations into the environment\'s baseline'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -l detailed-exitcode -d 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from diff" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l namespace -d 'Default namespace for entities that declare none' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l report -d 'Print a machine report instead of the plan' -r -f -a "gitlab-mr\t'`{"create":N,"update":N,"delete":N}` for artifacts:reports:terraform'"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l owned -d 'Only objects carrying this project\'s marker (the rest are reported as filtered)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -l detailed-exitcode -d 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from log" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from whoami" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l confirm -d 'The environment\'s name, typed again' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -l execute -d 'Delete the verified candidates (requires --confirm <env>)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from teardown" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l traffic -d 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l failure -d 'A failure to ask each entity\'s resilience verdict under (`one zone lost`)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l live -d 'Also predict the live estate, and show the per-entity delta with its marks'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -l json
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from predict" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "snapshot" -d 'Record what is live to the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print recorded snapshots'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "diff" -d 'Compare declared, live and recorded (or two recorded snapshots)'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Propose create / update / delete / adopt for every entity the read touched'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "log" -d 'List the commits of the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "whoami" -d 'Who chant would act as, and where, for each lexicon'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "teardown" -d 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "predict" -d 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'
complete -c chant -n "__fish_chant_using_subcommand lc; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand import" -l from -d 'The environment to export from' -r
complete -c chant -n "__fish_chant_using_subcommand import" -s d -l lexicon -d 'Only this lexicon' -r
complete -c chant -n "__fish_chant_using_subcommand import" -l type -d 'Only resources of this type' -r
complete -c chant -n "__fish_chant_using_subcommand import" -l name -d 'Only the resource with this name' -r
complete -c chant -n "__fish_chant_using_subcommand import" -s o -l output -d 'Where to write (default: imported/<lexicon>/ under the project)' -r -F
complete -c chant -n "__fish_chant_using_subcommand import" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand import" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand import" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand import" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand import" -l owned -d 'Only resources carrying this project\'s marker'
complete -c chant -n "__fish_chant_using_subcommand import" -l verbatim -d 'Keep server-defaulted fields'
complete -c chant -n "__fish_chant_using_subcommand import" -l force -d 'Overwrite existing files'
complete -c chant -n "__fish_chant_using_subcommand import" -l json
complete -c chant -n "__fish_chant_using_subcommand import" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand import" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand import" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand completions" -s C -l project -d 'Run as if chant was started in DIR (chant.toml is found there or in a parent)' -r -F
complete -c chant -n "__fish_chant_using_subcommand completions" -l color -d 'When to colour output (NO_COLOR is honoured)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c chant -n "__fish_chant_using_subcommand completions" -l concurrency -d 'Reads in flight per lexicon (default: each lexicon\'s own, usually 16)' -r
complete -c chant -n "__fish_chant_using_subcommand completions" -l timeout -d 'Seconds each network request may take; a whole lexicon gets ten times that' -r
complete -c chant -n "__fish_chant_using_subcommand completions" -s v -l verbose -d 'More logging on stderr (-v info, -vv debug, -vvv trace)'
complete -c chant -n "__fish_chant_using_subcommand completions" -s h -l help -d 'Print help'
complete -c chant -n "__fish_chant_using_subcommand completions" -s V -l version -d 'Print version'
complete -c chant -n "__fish_chant_using_subcommand help; and not __fish_seen_subcommand_from lifecycle import completions help" -f -a "lifecycle" -d 'Observe, compare and plan the live estate of an environment'
complete -c chant -n "__fish_chant_using_subcommand help; and not __fish_seen_subcommand_from lifecycle import completions help" -f -a "import" -d 'Write source from what is live in an environment'
complete -c chant -n "__fish_chant_using_subcommand help; and not __fish_seen_subcommand_from lifecycle import completions help" -f -a "completions" -d 'Print shell completions'
complete -c chant -n "__fish_chant_using_subcommand help; and not __fish_seen_subcommand_from lifecycle import completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "snapshot" -d 'Record what is live to the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "show" -d 'Print recorded snapshots'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "diff" -d 'Compare declared, live and recorded (or two recorded snapshots)'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "plan" -d 'Propose create / update / delete / adopt for every entity the read touched'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "log" -d 'List the commits of the chant/lifecycle branch'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "whoami" -d 'Who chant would act as, and where, for each lexicon'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "teardown" -d 'Plan (and with --execute, perform) deleting what this project owns and no longer declares'
complete -c chant -n "__fish_chant_using_subcommand help; and __fish_seen_subcommand_from lifecycle" -f -a "predict" -d 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine'

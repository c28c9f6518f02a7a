
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'chant' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'chant'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'chant' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('lifecycle', 'lifecycle', [CompletionResultType]::ParameterValue, 'Observe, compare and plan the live estate of an environment')
            [CompletionResult]::new('lc', 'lc', [CompletionResultType]::ParameterValue, 'Observe, compare and plan the live estate of an environment')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Write source from what is live in an environment')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;lifecycle' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Record what is live to the chant/lifecycle branch')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print recorded snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare declared, live and recorded (or two recorded snapshots)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Propose create / update / delete / adopt for every entity the read touched')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the commits of the chant/lifecycle branch')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who chant would act as, and where, for each lexicon')
            [CompletionResult]::new('teardown', 'teardown', [CompletionResultType]::ParameterValue, 'Plan (and with --execute, perform) deleting what this project owns and no longer declares')
            [CompletionResult]::new('predict', 'predict', [CompletionResultType]::ParameterValue, 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;lc' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Record what is live to the chant/lifecycle branch')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print recorded snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare declared, live and recorded (or two recorded snapshots)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Propose create / update / delete / adopt for every entity the read touched')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the commits of the chant/lifecycle branch')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who chant would act as, and where, for each lexicon')
            [CompletionResult]::new('teardown', 'teardown', [CompletionResultType]::ParameterValue, 'Plan (and with --execute, perform) deleting what this project owns and no longer declares')
            [CompletionResult]::new('predict', 'predict', [CompletionResultType]::ParameterValue, 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;lifecycle;snapshot' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--deep', '--deep', [CompletionResultType]::ParameterName, 'Also record each object''s full property tree')
            [CompletionResult]::new('--ambient', '--ambient', [CompletionResultType]::ParameterName, 'Also record ambient objects (undeclared, unreferenced) of the declared kinds')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;snapshot' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--deep', '--deep', [CompletionResultType]::ParameterName, 'Also record each object''s full property tree')
            [CompletionResult]::new('--ambient', '--ambient', [CompletionResultType]::ParameterName, 'Also record ambient objects (undeclared, unreferenced) of the declared kinds')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;show' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;show' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;diff' {
            [CompletionResult]::new('--between', '--between', [CompletionResultType]::ParameterName, 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Default namespace for entities that declare none')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Read the live estate (default: compare declarations with the last snapshot''s digest)')
            [CompletionResult]::new('--update-baseline', '--update-baseline', [CompletionResultType]::ParameterName, 'Accept the reported property deviations into the environment''s baseline')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;diff' {
            [CompletionResult]::new('--between', '--between', [CompletionResultType]::ParameterName, 'Compare two recorded snapshots (commits or revisions of chant/lifecycle)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Default namespace for entities that declare none')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Read the live estate (default: compare declarations with the last snapshot''s digest)')
            [CompletionResult]::new('--update-baseline', '--update-baseline', [CompletionResultType]::ParameterName, 'Accept the reported property deviations into the environment''s baseline')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when drift is found, 3 when the answer is incomplete and nothing else changed')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;plan' {
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Default namespace for entities that declare none')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Print a machine report instead of the plan')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--owned', '--owned', [CompletionResultType]::ParameterName, 'Only objects carrying this project''s marker (the rest are reported as filtered)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;plan' {
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Default namespace for entities that declare none')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Print a machine report instead of the plan')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--owned', '--owned', [CompletionResultType]::ParameterName, 'Only objects carrying this project''s marker (the rest are reported as filtered)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--detailed-exitcode', '--detailed-exitcode', [CompletionResultType]::ParameterName, 'Exit 2 when changes are proposed, 3 when the plan is incomplete and nothing else changed')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;log' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;log' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;whoami' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;whoami' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;teardown' {
            [CompletionResult]::new('--confirm', '--confirm', [CompletionResultType]::ParameterName, 'The environment''s name, typed again')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Delete the verified candidates (requires --confirm <env>)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;teardown' {
            [CompletionResult]::new('--confirm', '--confirm', [CompletionResultType]::ParameterName, 'The environment''s name, typed again')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Delete the verified candidates (requires --confirm <env>)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;predict' {
            [CompletionResult]::new('--traffic', '--traffic', [CompletionResultType]::ParameterName, 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)')
            [CompletionResult]::new('--failure', '--failure', [CompletionResultType]::ParameterName, 'A failure to ask each entity''s resilience verdict under (`one zone lost`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Also predict the live estate, and show the per-entity delta with its marks')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lc;predict' {
            [CompletionResult]::new('--traffic', '--traffic', [CompletionResultType]::ParameterName, 'The traffic level to predict at, handed to the engine verbatim (`100 rps`)')
            [CompletionResult]::new('--failure', '--failure', [CompletionResultType]::ParameterName, 'A failure to ask each entity''s resilience verdict under (`one zone lost`)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Also predict the live estate, and show the per-entity delta with its marks')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;lifecycle;help' {
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Record what is live to the chant/lifecycle branch')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print recorded snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare declared, live and recorded (or two recorded snapshots)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Propose create / update / delete / adopt for every entity the read touched')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the commits of the chant/lifecycle branch')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who chant would act as, and where, for each lexicon')
            [CompletionResult]::new('teardown', 'teardown', [CompletionResultType]::ParameterValue, 'Plan (and with --execute, perform) deleting what this project owns and no longer declares')
            [CompletionResult]::new('predict', 'predict', [CompletionResultType]::ParameterValue, 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;lifecycle;help;snapshot' {
            break
        }
        'chant;lifecycle;help;show' {
            break
        }
        'chant;lifecycle;help;diff' {
            break
        }
        'chant;lifecycle;help;plan' {
            break
        }
        'chant;lifecycle;help;log' {
            break
        }
        'chant;lifecycle;help;whoami' {
            break
        }
        'chant;lifecycle;help;teardown' {
            break
        }
        'chant;lifecycle;help;predict' {
            break
        }
        'chant;lifecycle;help;help' {
            break
        }
        'chant;lc;help' {
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Record what is live to the chant/lifecycle branch')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print recorded snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare declared, live and recorded (or two recorded snapshots)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Propose create / update / delete / adopt for every entity the read touched')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the commits of the chant/lifecycle branch')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who chant would act as, and where, for each lexicon')
            [CompletionResult]::new('teardown', 'teardown', [CompletionResultType]::ParameterValue, 'Plan (and with --execute, perform) deleting what this project owns and no longer declares')
            [CompletionResult]::new('predict', 'predict', [CompletionResultType]::ParameterValue, 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;lc;help;snapshot' {
            break
        }
        'chant;lc;help;show' {
            break
        }
        'chant;lc;help;diff' {
            break
        }
        'chant;lc;help;plan' {
            break
        }
        'chant;lc;help;log' {
            break
        }
        'chant;lc;help;whoami' {
            break
        }
        'chant;lc;help;teardown' {
            break
        }
        'chant;lc;help;predict' {
            break
        }
        'chant;lc;help;help' {
            break
        }
        'chant;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The environment to export from')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Only this lexicon')
            [CompletionResult]::new('--lexicon', '--lexicon', [CompletionResultType]::ParameterName, 'Only this lexicon')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only resources of this type')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only the resource with this name')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write (default: imported/<lexicon>/ under the project)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write (default: imported/<lexicon>/ under the project)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('--owned', '--owned', [CompletionResultType]::ParameterName, 'Only resources carrying this project''s marker')
            [CompletionResult]::new('--verbatim', '--verbatim', [CompletionResultType]::ParameterName, 'Keep server-defaulted fields')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite existing files')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;completions' {
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Run as if chant was started in DIR (chant.toml is found there or in a parent)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (NO_COLOR is honoured)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'Reads in flight per lexicon (default: each lexicon''s own, usually 16)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds each network request may take; a whole lexicon gets ten times that')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More logging on stderr (-v info, -vv debug, -vvv trace)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'chant;help' {
            [CompletionResult]::new('lifecycle', 'lifecycle', [CompletionResultType]::ParameterValue, 'Observe, compare and plan the live estate of an environment')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Write source from what is live in an environment')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'chant;help;lifecycle' {
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Record what is live to the chant/lifecycle branch')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print recorded snapshots')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare declared, live and recorded (or two recorded snapshots)')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Propose create / update / delete / adopt for every entity the read touched')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'List the commits of the chant/lifecycle branch')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who chant would act as, and where, for each lexicon')
            [CompletionResult]::new('teardown', 'teardown', [CompletionResultType]::ParameterValue, 'Plan (and with --execute, perform) deleting what this project owns and no longer declares')
            [CompletionResult]::new('predict', 'predict', [CompletionResultType]::ParameterValue, 'Predict cost, headroom and resilience at a traffic level, from a behaviour engine')
            break
        }
        'chant;help;lifecycle;snapshot' {
            break
        }
        'chant;help;lifecycle;show' {
            break
        }
        'chant;help;lifecycle;diff' {
            break
        }
        'chant;help;lifecycle;plan' {
            break
        }
        'chant;help;lifecycle;log' {
            break
        }
        'chant;help;lifecycle;whoami' {
            break
        }
        'chant;help;lifecycle;teardown' {
            break
        }
        'chant;help;lifecycle;predict' {
            break
        }
        'chant;help;import' {
            break
        }
        'chant;help;completions' {
            break
        }
        'chant;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

"""The diagnosis: from a failing op (or a traceback) to culprits in the user's names and one
complete fix, read from frames and source, never run. The rules for particular
families of bug live in :mod:`..families`; proving the fix, in :mod:`..rehearsal`."""

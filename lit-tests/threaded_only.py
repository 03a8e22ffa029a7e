# -*- Python -*- The test format of a ThreadSanitizer build (see lit.cfg.py).
#
# A module of its own so that lit can hand the format to its worker
# processes. Only the tests that run several host threads can find anything
# under ThreadSanitizer; the rest are reported unsupported. Threaded tests
# say `REQUIRES: threads`; older ones are listed here.
import re

import lit.formats
import lit.Test

LISTED = {"runtime/exit_status.c", "runtime/few_teams.c", "runtime/host_threads.c",
          "runtime/nowait.c", "runtime/paper_listings.c", "runtime/source_location_nowait.c"}


class ThreadedTestsOnly(lit.formats.ShTest):
    def execute(self, test, lit_config):
        with open(test.getSourcePath(), errors="replace") as f:
            marked = re.search(r"REQUIRES:.*\bthreads\b", f.read())
        if not marked and "/".join(test.path_in_suite) not in LISTED:
            return lit.Test.Result(lit.Test.UNSUPPORTED,
                                   "not a threaded test (ThreadSanitizer build)")
        return super().execute(test, lit_config)

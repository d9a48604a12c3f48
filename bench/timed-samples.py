"""Reads `perf script -F comm,tid,ip,sym` call-graph samples on stdin and prints, for the samples whose stack holds
the timed JMH method TimerQueueBenchmark.<name>( and no undo or setup frame, the share of each innermost method."""
import collections
import re
import sys

timed = re.compile(r'TimerQueueBenchmark\.%s\(' % re.escape(sys.argv[1]))
untimed = re.compile(r'undo|[Ss]etup')
shares = collections.Counter()
total = 0
for sample in sys.stdin.read().split('\n\n'):
    frames = [line.strip() for line in sample.strip().split('\n')[1:] if line.strip()]
    if not frames or not any(timed.search(f) for f in frames) or any(untimed.search(f) for f in frames):
        continue
    total += 1
    innermost = frames[0].split(' ', 1)[-1]
    shares[re.sub(r'\(.*', '', innermost).replace('io.timeservice.core.', '')] += 1
print('samples in the timed region:', total)
for method, count in shares.most_common(15):
    print('%5.1f%%  %s' % (100.0 * count / max(total, 1), method))

#!/usr/bin/env python3
"""What a phone player gets, measured from a recording of the fake Discord
(STOLIK_CAPTURE, one JSON object a line; pictures beside it in
<capture>.files/):

  STOLIK_CAPTURE=/tmp/c/c.jsonl go test ./bot/ -run TestWholeGamesOnTheScreen -count=1
  python3 scripts/phone.py taps /tmp/c/c.jsonl
  python3 scripts/phone.py words /tmp/c/c.jsonl.files [--sample 60]

taps: taps per human decision, per test and overall. A decision is a user's
game click at one table version; it costs its clicks (My hand, a button)
and two for a select menu (open, pick). Also how many turn pings (posts,
channel messages or public follow-ups of an interaction, that mention a
user the message lets ping) carry a control.

words: reads the pictures with tesseract (eng+pol+ukr; Debian packages
tesseract-ocr, tesseract-ocr-pol, tesseract-ocr-ukr) and scales every
word's box height to the 300 CSS px a 390-px phone gives an image in a
message: the 10th percentile and the median, and the pictures taller than
1.25 times their width.
"""
import collections, glob, json, os, random, re, statistics, struct, subprocess, sys


def taps(path):
    by_test = collections.defaultdict(list)
    with open(path, encoding='utf-8') as f:
        for line in f:
            d = json.loads(line)
            if 'test' in d and not d.get('kind'):
                by_test[d['test'].split('/')[-1]].append(d)
    total_taps = total_decisions = pings = with_control = 0
    worst = 0.0
    for name, reqs in sorted(by_test.items()):
        decisions, n = set(), 0
        for d in reqs:
            iname = d.get('iname') or ''
            if 'callback' in d['path']:
                m = re.match(r't/[^/]+/(\d+)/(.*)', iname)
                if iname.startswith('hand'):
                    n += 1
                elif m:
                    decisions.add((d.get('iuser'), m.group(1)))
                    n += 2 if m.group(2).startswith('~sel') else 1
            body = d.get('body')
            # A post: a channel message, or a public follow-up of an
            # interaction (the bot posts a move's pings and results so).
            post = d['path'].startswith('/channels/') and d['path'].endswith('/messages')
            followup = re.fullmatch(r'/webhooks/\d+/[^/]+', d['path'].split('?')[0]) is not None
            if d['method'] == 'POST' and (post or followup) and isinstance(body, dict) and not (body.get('flags') or 0) & 64:
                allowed = body.get('allowed_mentions') or {}
                text = json.dumps(body, ensure_ascii=False)
                if re.search(r'<@\d+>', text) and (allowed.get('users') or 'users' in (allowed.get('parse') or [])):
                    pings += 1
                    with_control += '"custom_id"' in text
        if decisions:
            rate = n / len(decisions)
            worst = max(worst, rate)
            total_taps, total_decisions = total_taps + n, total_decisions + len(decisions)
            print(f'{name}: {len(decisions)} decisions, {rate:.2f} taps each')
    if not total_decisions:
        sys.exit('no decisions in ' + path)
    print(f'taps per decision {total_taps / total_decisions:.2f} (worst {worst:.2f}); turn pings {pings}, with a control {with_control}')


def words(folder, sample):
    pngs = sorted(glob.glob(os.path.join(folder, '*.png')))
    if not pngs:
        sys.exit('no pictures in ' + folder)
    random.seed(7)
    chosen = pngs if len(pngs) <= sample else random.sample(pngs, sample)
    heights, tall = [], 0
    for p in chosen:
        with open(p, 'rb') as f:
            w, h = struct.unpack('>II', f.read(24)[16:24])
        tall += h > 1.25 * w
        scale = min(1.0, 300.0 / w)
        out = subprocess.run(['tesseract', p, '-', '--psm', '11', '-l', 'eng+pol+ukr', 'tsv'], capture_output=True, text=True).stdout
        for row in out.splitlines()[1:]:
            c = row.split('\t')
            try:
                if len(c) >= 12 and float(c[10]) > 60 and len(c[11].strip()) > 1:
                    heights.append(int(c[9]) * scale)
            except ValueError:
                pass
    if not heights:
        sys.exit('no words read')
    heights.sort()
    print(f'{len(chosen)} of {len(pngs)} pictures, {len(heights)} words: height at phone width p10 {heights[len(heights) // 10]:.1f} px, '
          f'median {statistics.median(heights):.1f} px; taller than 1.25x wide: {tall}')


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'taps':
        taps(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'words':
        n = int(sys.argv[sys.argv.index('--sample') + 1]) if '--sample' in sys.argv else 60
        words(sys.argv[2], n)
    else:
        sys.exit(__doc__)

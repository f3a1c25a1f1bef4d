"""The merge of a system trace and a recording, with Perfetto's own
compiled protos (the PyPI package perfetto).

  merge_check.py fixture OUT PID TIDS MONO_FROM MONO_TO BOOT_OFFSET
      writes a system trace as a device's would begin: a clock snapshot
      (BOOTTIME = MONOTONIC + BOOT_OFFSET, at MONO_FROM), the process
      tree with PID and its threads TIDS (comma-separated), and a track
      event slice of the system's own from MONO_FROM to MONO_TO (boot
      clock), so that its range is known.

  merge_check.py check MERGED PID TIDS MONO_FROM MONO_TO BOOT_OFFSET
      reads the merged trace: every packet parses; the system's packets
      come first, unchanged in number; the recording's sequences are not
      the system's; each of its thread tracks is a thread of PID with one
      of TIDS; every slice of it, its time taken through its sequence's
      clock snapshot onto MONOTONIC and then onto the boot clock, lies in
      the fixture's range. Prints "slices=N threads=N", then "ok"."""
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb

BOOT, MONO = 6, 3


def fail(msg):
    print("merge_check: " + msg)
    sys.exit(1)


def fixture(out, pid, tids, mono_from, mono_to, boot_offset):
    trace = pb.Trace()
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 1
    for clock_id, ts in ((BOOT, mono_from + boot_offset), (MONO, mono_from)):
        c = p.clock_snapshot.clocks.add()
        c.clock_id, c.timestamp = clock_id, ts
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 1
    proc = p.process_tree.processes.add()
    proc.pid, proc.ppid = pid, 1
    proc.cmdline.append("app")
    for tid in tids:
        th = p.process_tree.threads.add()
        th.tid, th.tgid = tid, pid
    p = trace.packet.add()
    p.trusted_packet_sequence_id = 2
    p.track_descriptor.uuid = 7
    p.track_descriptor.name = "system"
    for ts, kind in ((mono_from + boot_offset, pb.TrackEvent.TYPE_SLICE_BEGIN), (mono_to + boot_offset, pb.TrackEvent.TYPE_SLICE_END)):
        p = trace.packet.add()
        p.trusted_packet_sequence_id = 2
        p.timestamp = ts
        p.track_event.type = kind
        p.track_event.track_uuid = 7
        if kind == pb.TrackEvent.TYPE_SLICE_BEGIN:
            p.track_event.name = "system range"
    with open(out, "wb") as f:
        f.write(trace.SerializeToString())
    return len(trace.packet)


def check(path, pid, tids, mono_from, mono_to, boot_offset):
    trace = pb.Trace()
    with open(path, "rb") as f:
        trace.ParseFromString(f.read())
    system_packets = 5
    system_seqs = {p.trusted_packet_sequence_id for p in trace.packet[:system_packets]}
    if system_seqs != {1, 2}:
        fail("the system trace's packets do not come first: sequences %s" % sorted(system_seqs))
    tracks, clocks, times, slices = {}, {}, {}, 0
    seen_threads = set()
    for n, p in enumerate(trace.packet[system_packets:], system_packets):
        seq = p.trusted_packet_sequence_id
        if seq in (1, 2):
            fail("packet %d: the recording's packet on a system sequence %d" % (n, seq))
        if p.HasField("clock_snapshot"):
            snap = {c.clock_id: c.timestamp for c in p.clock_snapshot.clocks}
            custom = [c for c in p.clock_snapshot.clocks if c.clock_id >= 64]
            if not custom or MONO not in snap:
                fail("packet %d: a snapshot that does not place the sequence's clock on MONOTONIC: %s" % (n, snap))
            clocks[seq] = (custom[0].clock_id, custom[0].timestamp, snap[MONO])
            times[seq] = custom[0].timestamp
        if p.HasField("track_descriptor") and p.track_descriptor.HasField("thread"):
            th = p.track_descriptor.thread
            # tid 0: the track of the recording's notes and clock.
            if th.pid != pid or (th.tid not in tids and th.tid != 0):
                fail("packet %d: a thread track of pid %d tid %d, not the app's" % (n, th.pid, th.tid))
            tracks[p.track_descriptor.uuid] = th.tid
        if p.HasField("track_event"):
            if seq not in clocks:
                fail("packet %d: an event before its sequence's clock" % n)
            times[seq] += p.timestamp  # the sequence's clock is incremental
            _, zero, mono0 = clocks[seq]
            mono = mono0 + (times[seq] - zero)
            boot = mono + boot_offset
            if not (mono_from + boot_offset <= boot <= mono_to + boot_offset):
                fail("packet %d: a slice at boot time %d, outside the system trace's %d..%d" % (n, boot, mono_from + boot_offset, mono_to + boot_offset))
            if p.track_event.type == pb.TrackEvent.TYPE_SLICE_BEGIN:
                slices += 1
            track = p.track_event.track_uuid or None
            if track in tracks:
                seen_threads.add(tracks[track])
    if slices == 0:
        fail("no slice of the recording")
    print("slices=%d threads=%d" % (slices, len(tracks)))
    print("ok")


def main(argv):
    mode, path = argv[1], argv[2]
    pid, tids = int(argv[3]), [int(t) for t in argv[4].split(",")]
    mono_from, mono_to, boot_offset = int(argv[5]), int(argv[6]), int(argv[7])
    if mode == "fixture":
        print(fixture(path, pid, tids, mono_from, mono_to, boot_offset))
    else:
        check(path, pid, tids, mono_from, mono_to, boot_offset)


if __name__ == "__main__":
    main(sys.argv)

"""Reads a trace `tracebeat decode --format perfetto` wrote with Perfetto's
own compiled protos (the PyPI package perfetto) and checks it as a reader
would: every packet parses as perfetto.protos.TracePacket; every event's
sequence was cleared first and its track is described (a thread of a
described process); name ids were interned on their sequence; every end
closes a begin on its track and no slice is left open. Prints the slices,
one per line (tid, start ns, end ns, depth, name, sorted by pid, tid,
start, depth, end and name), then "ok"; exits 1 with the reason otherwise."""
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb


def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)


def main(path):
    trace = pb.Trace()
    with open(path, "rb") as f:
        trace.ParseFromString(f.read())
    processes, threads, counters = {}, {}, set()
    seqs, stacks, slices = {}, {}, []
    TE = pb.TrackEvent
    for n, packet in enumerate(trace.packet):
        seq_id = packet.trusted_packet_sequence_id
        if packet.HasField("track_descriptor"):
            d = packet.track_descriptor
            if d.HasField("process"):
                processes[d.uuid] = d.process.pid
            elif d.HasField("thread"):
                if d.parent_uuid not in processes:
                    fail("packet %d: thread track %d of an undescribed process" % (n, d.uuid))
                threads[d.uuid] = (d.thread.pid, d.thread.tid)
            elif d.HasField("counter"):
                counters.add(d.uuid)
            continue
        if packet.sequence_flags & pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
            defaults = packet.trace_packet_defaults
            seqs[seq_id] = {"clock": 0, "track": defaults.track_event_defaults.track_uuid,
                            "clock_id": defaults.timestamp_clock_id, "names": {}}
            clocks = {c.clock_id: c for c in packet.clock_snapshot.clocks}
            if seqs[seq_id]["clock_id"] not in clocks or not clocks[seqs[seq_id]["clock_id"]].is_incremental:
                fail("packet %d: sequence %d's clock is not an incremental clock it defines" % (n, seq_id))
        if not packet.HasField("track_event"):
            continue
        s = seqs.get(seq_id)
        if s is None:
            fail("packet %d: an event on sequence %d before its state was cleared" % (n, seq_id))
        if not packet.sequence_flags & pb.TracePacket.SEQ_NEEDS_INCREMENTAL_STATE:
            fail("packet %d: an event that uses interned names does not say so" % n)
        for name in packet.interned_data.event_names:
            s["names"][name.iid] = name.name
        s["clock"] += packet.timestamp
        ev = packet.track_event
        track = ev.track_uuid if ev.HasField("track_uuid") else s["track"]
        if ev.type == TE.TYPE_COUNTER:
            if track not in counters:
                fail("packet %d: a counter value on track %d, not a counter track" % (n, track))
            continue
        if track not in threads:
            fail("packet %d: an event on track %d, which no descriptor names" % (n, track))
        name = None
        if ev.HasField("name_iid"):
            if ev.name_iid not in s["names"]:
                fail("packet %d: name id %d never interned" % (n, ev.name_iid))
            name = s["names"][ev.name_iid]
        stack = stacks.setdefault(track, [])
        if ev.type == TE.TYPE_SLICE_BEGIN:
            if name is None:
                fail("packet %d: a slice without a name" % n)
            stack.append((name, s["clock"]))
        elif ev.type == TE.TYPE_SLICE_END:
            if not stack:
                fail("packet %d: an end with nothing open on its track" % n)
            name, start = stack.pop()
            pid, tid = threads[track]
            slices.append((pid, tid, start, len(stack), s["clock"], name))
        elif ev.type != TE.TYPE_INSTANT:
            fail("packet %d: event type %d" % (n, ev.type))
    for track, stack in stacks.items():
        if stack:
            fail("track %d: %d slices left open" % (track, len(stack)))
    for pid, tid, start, depth, end, name in sorted(slices):
        print("%d\t%d\t%d\t%d\t%s" % (tid, start, end, depth, name))
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])

/* Overheads: a small kernel that writes a value the host replays, so that no launch can be dropped. Work-item
 * i of launch `slot` runs `iters` steps of a linear congruential generator from slot * 64 + i and writes the
 * result to out[slot * get_global_size(0) + i]. iters 0: the launch costs nothing but its own overhead. */
__kernel void mark(__global uint *out, uint slot, uint iters)
{
    uint i = get_global_id(0), x = slot * 64u + i;
    for (uint k = 0; k < iters; k++)
        x = x * 1664525u + 1013904223u;
    out[slot * get_global_size(0) + i] = x;
}

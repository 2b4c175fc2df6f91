/* Launch latency: a kernel that does nothing, so that only the launch is timed. */
__kernel void empty(void)
{
}

/* One place that pulls in the OpenCL headers at the API level clgauge targets (1.2), so every device that
 * speaks OpenCL 1.2 or later runs it. */
#ifndef CG_CL_H
#define CG_CL_H
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#endif

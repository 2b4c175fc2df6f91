/* Exit codes of the clgauge binary, shared by every layer: a function that fails returns one of these and the
 * caller passes it up; only main.c turns it into the process exit code. */
#ifndef CG_STATUS_H
#define CG_STATUS_H

typedef enum cg_status {
    CG_OK = 0,
    CG_E_USAGE = 1,    /* bad flag, size, name: the user can fix the command line */
    CG_E_NODEVICE = 2, /* no OpenCL platform, or no device matches the selector */
    CG_E_VERIFY = 3,   /* a rung's output did not match the CPU reference */
    CG_E_RUNTIME = 4,  /* an OpenCL call or the runtime failed */
    CG_E_IO = 5,       /* a file could not be read or written */
} cg_status;

/* The worse of two statuses: a failure beats success; among failures the first one wins, except that a
 * runtime or I/O error beats a verification failure (it says the run itself broke). */
cg_status cg_status_merge(cg_status a, cg_status b);

#endif

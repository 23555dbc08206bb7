/* included by errors.cl through -I (test_cc_frontend) */
#define INCLUDED 1000
